/* yes6.h */
