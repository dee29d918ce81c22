#ifndef _LINUX_CPUSET_H
#define _LINUX_CPUSET_H

struct task_struct;

void cpuset_fork(struct task_struct *p);

#endif
