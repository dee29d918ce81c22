/* t08.h: test 08 true */
