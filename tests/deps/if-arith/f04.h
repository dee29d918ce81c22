/* f04.h: test 04 false */
