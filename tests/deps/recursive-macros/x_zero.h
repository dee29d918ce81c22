/* x_zero.h */
