/* t11.h: test 11 true */
