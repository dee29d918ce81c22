/* f16.h: test 16 false */
