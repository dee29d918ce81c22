/* f02.h: test 02 false */
