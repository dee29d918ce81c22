/* src/fast.h */
