/* src/level2.h */
