/* inc/y.h */
