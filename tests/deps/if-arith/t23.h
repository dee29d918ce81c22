/* t23.h: test 23 true */
