/* level1.h */
