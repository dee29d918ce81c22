/*
 * include/linux/types.h - hdrslim example tree.
 *
 * Basic kernel types.  The example tree uses no system headers, so the
 * fixed-size integers, bool, NULL and offsetof() all come from here.
 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

typedef signed char		s8;
typedef unsigned char		u8;
typedef signed short		s16;
typedef unsigned short		u16;
typedef signed int		s32;
typedef unsigned int		u32;
typedef signed long long	s64;
typedef unsigned long long	u64;

typedef __SIZE_TYPE__		size_t;
typedef long			ssize_t;
typedef int			pid_t;
typedef unsigned int		uid_t;
typedef unsigned int		gfp_t;

typedef _Bool			bool;

enum {
	false	= 0,
	true	= 1
};

#define NULL ((void *)0)

#define offsetof(TYPE, MEMBER)	__builtin_offsetof(TYPE, MEMBER)

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long counter;
} atomic64_t;

#endif /* _LINUX_TYPES_H */
