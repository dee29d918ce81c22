/* src/up.h */
