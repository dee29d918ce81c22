/* f22.h: test 22 false */
