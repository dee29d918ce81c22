/* f10.h: test 10 false */
