#include <linux/sched/signal.h>

int exit_signals(void)
{
	return signal_pending(current);
}
