/* yes2.h */
