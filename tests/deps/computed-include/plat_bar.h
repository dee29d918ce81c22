/* plat_bar.h */
