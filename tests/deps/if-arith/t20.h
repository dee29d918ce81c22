/* t20.h: test 20 true */
