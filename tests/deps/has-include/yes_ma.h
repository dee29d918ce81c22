/* yes_ma.h */
