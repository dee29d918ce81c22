/* f09.h: test 09 false */
