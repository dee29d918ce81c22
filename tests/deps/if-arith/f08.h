/* f08.h: test 08 false */
