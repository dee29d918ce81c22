/* t10.h: test 10 true */
