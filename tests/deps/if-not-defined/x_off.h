/* x_off.h */
