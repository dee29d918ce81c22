/* t02.h: test 02 true */
