/* yes_a.h */
