/* f01.h: test 01 false */
