/* tabs2.h */
