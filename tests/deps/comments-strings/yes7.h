/* yes7.h */
