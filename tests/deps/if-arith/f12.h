/* f12.h: test 12 false */
