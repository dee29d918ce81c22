/* from_hdr.h */
