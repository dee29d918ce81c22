/* t17.h: test 17 true */
