/* c_second.h */
