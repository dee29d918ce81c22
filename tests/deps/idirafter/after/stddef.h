/* after/stddef.h: only with -nostdinc */
