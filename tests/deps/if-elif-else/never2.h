/* never2.h */
