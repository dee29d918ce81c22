/* line101.h */
