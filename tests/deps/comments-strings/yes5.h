/* yes5.h */
