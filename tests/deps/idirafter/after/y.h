/* after/y.h: shadowed by inc/y.h */
