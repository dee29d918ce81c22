#include <linux/sched.h>
#include <linux/sched/signal.h>

int recalc_sigpending(void)
{
	return signal_pending(current) ? current->pid : 0;
}
