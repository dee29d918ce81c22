/* t16.h: test 16 true */
