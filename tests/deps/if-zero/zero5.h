/* zero5.h: must NOT be included */
