/* f11.h: test 11 false */
