/* no8.h: must NOT be included */
