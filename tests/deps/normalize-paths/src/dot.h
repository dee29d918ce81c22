/* src/dot.h */
