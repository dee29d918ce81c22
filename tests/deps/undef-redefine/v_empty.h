/* v_empty.h */
