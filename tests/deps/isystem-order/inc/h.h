/* inc/h.h */
