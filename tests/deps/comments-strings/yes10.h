/* yes10.h */
