/* t07.h: test 07 true */
