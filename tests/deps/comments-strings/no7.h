/* no7.h: must NOT be included */
