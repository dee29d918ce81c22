/* not_a.h */
