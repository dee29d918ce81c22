/* has_has_include.h */
