/* no6.h: must NOT be included */
