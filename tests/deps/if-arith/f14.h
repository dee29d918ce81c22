/* f14.h: test 14 false */
