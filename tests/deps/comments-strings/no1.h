/* no1.h: must NOT be included */
