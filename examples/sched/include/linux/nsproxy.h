/*
 * include/linux/nsproxy.h - hdrslim example tree.
 *
 * The namespaces a task lives in, and the calls that create, copy and
 * switch them.  <linux/sched.h> includes it, yet only points to a struct
 * nsproxy: a forward declaration would do.
 */
#ifndef _LINUX_NSPROXY_H
#define _LINUX_NSPROXY_H

#include <linux/ns_common.h>

struct task_struct;
struct uts_namespace;
struct ipc_namespace;
struct mnt_namespace;
struct pid_namespace;
struct net;
struct fs_struct;

/*
 * A structure to contain pointers to all per-process namespaces: uts,
 * ipc, mount, pid and net.  The reference count is the one every
 * namespace has, in its struct ns_common.
 */
struct nsproxy {
	struct ns_common		common;
	struct uts_namespace		*uts_ns;
	struct ipc_namespace		*ipc_ns;
	struct mnt_namespace		*mnt_ns;
	struct pid_namespace		*pid_ns_for_children;
	struct net			*net_ns;
};

extern struct nsproxy init_nsproxy;

extern int copy_namespaces(unsigned long flags, struct task_struct *tsk);
extern void exit_task_namespaces(struct task_struct *tsk);
extern void switch_task_namespaces(struct task_struct *tsk,
				   struct nsproxy *new);
extern int unshare_nsproxy_namespaces(unsigned long unshare_flags,
				      struct nsproxy **new_nsp,
				      struct fs_struct *new_fs);
extern struct nsproxy *create_new_namespaces(unsigned long flags,
					     struct task_struct *tsk,
					     struct fs_struct *new_fs);
extern void free_nsproxy(struct nsproxy *ns);
extern int nsproxy_cache_init(void);

static inline void put_nsproxy(struct nsproxy *ns)
{
	if (--ns->common.count.counter == 0)
		free_nsproxy(ns);
}

static inline struct nsproxy *get_nsproxy(struct nsproxy *ns)
{
	ns->common.count.counter++;
	return ns;
}

#endif /* _LINUX_NSPROXY_H */
