/* f26.h: test 26 false */
