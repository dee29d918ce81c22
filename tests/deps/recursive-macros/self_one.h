/* self_one.h */
