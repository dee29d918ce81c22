/*
 * include/linux/capability.h - hdrslim example tree.
 *
 * POSIX capabilities.  Task code that checks privileges includes this
 * header itself.
 */
#ifndef _LINUX_CAPABILITY_H
#define _LINUX_CAPABILITY_H

#include <linux/types.h>

struct task_struct;
struct user_namespace;

#define _KERNEL_CAPABILITY_U32S	2

typedef struct kernel_cap_struct {
	u32 cap[_KERNEL_CAPABILITY_U32S];
} kernel_cap_t;

#define CAP_CHOWN		0
#define CAP_KILL		5
#define CAP_SETUID		7
#define CAP_NET_ADMIN		12
#define CAP_SYS_ADMIN		21
#define CAP_SYS_NICE		23
#define CAP_SYS_RESOURCE	24

#define CAP_TO_INDEX(x)		((x) >> 5)
#define CAP_TO_MASK(x)		(1U << ((x) & 31))

#define cap_raised(c, flag)	((c).cap[CAP_TO_INDEX(flag)] & CAP_TO_MASK(flag))

extern const kernel_cap_t __cap_empty_set;

extern bool has_capability(struct task_struct *t, int cap);
extern bool ns_capable(struct user_namespace *ns, int cap);
extern bool capable(int cap);

#endif /* _LINUX_CAPABILITY_H */
