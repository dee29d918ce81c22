/* yes3.h */
