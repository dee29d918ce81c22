#include <linux/sched.h>

int fork_pid(void)
{
	return get_current()->pid;
}
