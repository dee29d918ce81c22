/* f18.h: test 18 false */
