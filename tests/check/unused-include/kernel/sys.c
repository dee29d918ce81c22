#include <linux/sched.h>

int sys_sethostname(void)
{
	if (!capable(21 /* CAP_SYS_ADMIN */))
		return -1;
	return get_current()->pid;
}
