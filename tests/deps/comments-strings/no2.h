/* no2.h: must NOT be included */
