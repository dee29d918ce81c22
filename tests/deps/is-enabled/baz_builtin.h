/* baz_builtin.h */
