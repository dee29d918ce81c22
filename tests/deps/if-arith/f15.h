/* f15.h: test 15 false */
