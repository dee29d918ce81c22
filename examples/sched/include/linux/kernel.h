/*
 * include/linux/kernel.h - hdrslim example tree.
 *
 * printk() and the usual grab-bag of helper macros.  Only .c files
 * include it; no header in the example tree does.
 */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <linux/types.h>

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"

#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	((type *)((char *)__mptr - offsetof(type, member))); })

#define min(x, y)	((x) < (y) ? (x) : (y))
#define max(x, y)	((x) > (y) ? (x) : (y))

extern int printk(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
extern int scnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern void panic(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

#define pr_err(fmt, ...)	printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO fmt, ##__VA_ARGS__)

#endif /* _LINUX_KERNEL_H */
