/* yes9.h */
