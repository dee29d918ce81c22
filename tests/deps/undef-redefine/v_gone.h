/* v_gone.h */
