/* t09.h: test 09 true */
