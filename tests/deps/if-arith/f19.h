/* f19.h: test 19 false */
