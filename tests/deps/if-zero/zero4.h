/* zero4.h: must NOT be included */
