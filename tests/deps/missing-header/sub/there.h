/* sub/there.h */
