/* foo_builtin.h */
