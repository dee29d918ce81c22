/* bad_from_main.h */
