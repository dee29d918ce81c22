/* no_a.h */
