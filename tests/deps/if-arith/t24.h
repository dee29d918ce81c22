/* t24.h: test 24 true */
