/* f21.h: test 21 false */
