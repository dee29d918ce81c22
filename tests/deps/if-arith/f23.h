/* f23.h: test 23 false */
