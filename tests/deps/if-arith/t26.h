/* t26.h: test 26 true */
