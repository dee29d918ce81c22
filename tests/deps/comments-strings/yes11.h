/* yes11.h */
