/* no_ma.h */
