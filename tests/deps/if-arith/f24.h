/* f24.h: test 24 false */
