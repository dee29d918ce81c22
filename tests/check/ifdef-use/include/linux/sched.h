#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

struct task_struct {
	int pid;
};

struct task_struct *get_current(void);

#endif
