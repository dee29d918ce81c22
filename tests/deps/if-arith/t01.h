/* t01.h: test 01 true */
