#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/jiffies.h>

struct task_struct {
	int pid;
	unsigned long timeout;
};

struct task_struct *get_current(void);

static inline int task_timed_out(const struct task_struct *p)
{
	return time_after(jiffies, p->timeout);
}

#endif
