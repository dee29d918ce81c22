/* zero2.h: must NOT be included */
