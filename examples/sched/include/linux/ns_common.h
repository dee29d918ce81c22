/*
 * include/linux/ns_common.h - hdrslim example tree.
 *
 * What every namespace has in common: a reference count and an inode
 * number.  Only <linux/nsproxy.h> includes it.
 */
#ifndef _LINUX_NS_COMMON_H
#define _LINUX_NS_COMMON_H

#include <linux/types.h>

struct proc_ns_operations;

struct ns_common {
	atomic_t				count;
	const struct proc_ns_operations		*ops;
	unsigned int				inum;
};

extern int ns_alloc_inum(struct ns_common *ns);
extern void ns_free_inum(struct ns_common *ns);

#define ns_get_count(ns)	((ns)->count.counter)

#endif /* _LINUX_NS_COMMON_H */
