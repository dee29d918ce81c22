/* f25.h: test 25 false */
