/* f07.h: test 07 false */
