/* yes8.h */
