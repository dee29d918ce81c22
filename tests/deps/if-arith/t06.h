/* t06.h: test 06 true */
