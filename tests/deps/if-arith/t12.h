/* t12.h: test 12 true */
