/* t03.h: test 03 true */
