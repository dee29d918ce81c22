/* t13.h: test 13 true */
