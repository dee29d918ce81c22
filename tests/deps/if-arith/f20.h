/* f20.h: test 20 false */
