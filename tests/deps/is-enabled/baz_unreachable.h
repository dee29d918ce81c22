/* baz_unreachable.h */
