/* t22.h: test 22 true */
