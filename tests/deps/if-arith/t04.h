/* t04.h: test 04 true */
