/* f03.h: test 03 false */
