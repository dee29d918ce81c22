/* t14.h: test 14 true */
