/* x_def.h */
