#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

struct task_struct {
	int sigpending;
	int pid;
};

struct task_struct *get_current(void);
#define current get_current()

#endif
