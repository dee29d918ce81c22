/* line25.h */
