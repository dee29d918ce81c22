/* zero.h: must NOT be included */
