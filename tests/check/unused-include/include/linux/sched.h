#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/capability.h>

#define TASK_RUNNING 0x0000

struct task_struct {
	long state;
	int pid;
};

struct task_struct *get_current(void);

#endif
