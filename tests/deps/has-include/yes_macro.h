/* yes_macro.h */
