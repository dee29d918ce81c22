/* yes4.h */
