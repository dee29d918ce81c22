/* no.h: must NOT be included */
