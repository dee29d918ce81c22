/* inc/x.h */
