/* f17.h: test 17 false */
