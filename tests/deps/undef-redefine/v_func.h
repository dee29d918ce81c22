/* v_func.h */
