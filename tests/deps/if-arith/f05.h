/* f05.h: test 05 false */
