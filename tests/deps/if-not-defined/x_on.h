/* x_on.h */
