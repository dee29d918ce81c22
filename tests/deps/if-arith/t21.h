/* t21.h: test 21 true */
