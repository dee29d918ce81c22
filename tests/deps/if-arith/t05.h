/* t05.h: test 05 true */
