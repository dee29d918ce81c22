/* no3.h: must NOT be included */
