/* f13.h: test 13 false */
