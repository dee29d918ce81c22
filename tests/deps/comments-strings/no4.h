/* no4.h: must NOT be included */
