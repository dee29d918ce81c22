/* t18.h: test 18 true */
