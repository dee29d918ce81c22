#include <linux/sched.h>
#include <linux/cpuset.h>

int copy_process(void)
{
	int pid = get_current()->pid;

#ifdef CONFIG_CPUSETS
	cpuset_fork(get_current());
#endif
	return pid;
}
