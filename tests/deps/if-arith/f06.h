/* f06.h: test 06 false */
