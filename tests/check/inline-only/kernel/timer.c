#include <linux/sched.h>

int timer_expired(void)
{
	return task_timed_out(get_current());
}
