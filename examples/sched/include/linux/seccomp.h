/*
 * include/linux/seccomp.h - hdrslim example tree.
 *
 * Secure computing mode.  struct task_struct embeds a struct seccomp, so
 * <linux/sched.h> needs its definition; the rest of this header (and
 * <linux/audit.h>, which it includes) only the few files that filter
 * system calls.
 */
#ifndef _LINUX_SECCOMP_H
#define _LINUX_SECCOMP_H

#include <linux/audit.h>

#define SECCOMP_MODE_DISABLED	0
#define SECCOMP_MODE_STRICT	1
#define SECCOMP_MODE_FILTER	2

struct task_struct;

/*
 * struct seccomp - the state of a task's secure computing mode: the mode,
 * and the filters that decide its system calls.
 */
struct seccomp {
	int				mode;
	atomic_t			filter_count;
	struct seccomp_filter		*filter;
};

extern int __secure_computing(int this_syscall);
extern long prctl_get_seccomp(void);
extern long prctl_set_seccomp(unsigned long mode, void *filter);
extern void copy_seccomp(struct task_struct *p);
extern void seccomp_filter_release(struct task_struct *tsk);

static inline int secure_computing(int this_syscall, int mode)
{
	if (mode == SECCOMP_MODE_DISABLED)
		return 0;
	if (!audit_dummy_context())
		audit_seccomp((unsigned long)this_syscall, 0, mode);
	return __secure_computing(this_syscall);
}

#endif /* _LINUX_SECCOMP_H */
