/* src/slow.h */
