/* t25.h: test 25 true */
