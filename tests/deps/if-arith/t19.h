/* t19.h: test 19 true */
