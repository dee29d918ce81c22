/* plat_foo.h */
