/* t15.h: test 15 true */
