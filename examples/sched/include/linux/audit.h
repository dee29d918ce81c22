/*
 * include/linux/audit.h - hdrslim example tree.
 *
 * The audit subsystem's API.  Heavy and rarely needed: <linux/sched.h>
 * drags it into every file only because <linux/seccomp.h>, which it
 * includes for one struct, uses it.
 */
#ifndef _LINUX_AUDIT_H
#define _LINUX_AUDIT_H

#include <linux/types.h>

#define AUDIT_TYPE_NORMAL	0
#define AUDIT_TYPE_PARENT	1
#define AUDIT_TYPE_CHILD_DELETE	3

struct task_struct;

/* One rule of the audit filter lists. */
struct audit_krule {
	u32			pflags;
	u32			flags;
	u32			listnr;
	u32			action;
	u32			field_count;
	struct audit_krule	*next;
};

extern int audit_enabled;

extern int audit_alloc(struct task_struct *task);
extern void __audit_free(struct task_struct *task);
extern void __audit_seccomp(unsigned long syscall, long signr, int code);
extern void audit_log_format(const char *fmt, ...);
extern int audit_rule_change(int type, int seq, void *data, size_t datasz);

static inline void audit_free(struct task_struct *task)
{
	if (audit_enabled)
		__audit_free(task);
}

static inline void audit_seccomp(unsigned long syscall, long signr, int code)
{
	if (!audit_enabled)
		return;
	__audit_seccomp(syscall, signr, code);
}

static inline bool audit_dummy_context(void)
{
	return !audit_enabled;
}

#endif /* _LINUX_AUDIT_H */
