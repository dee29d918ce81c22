#include <linux/sched.h>

int fork_running(void)
{
	return get_current()->state == TASK_RUNNING;
}
