/* hdr_c.h */
