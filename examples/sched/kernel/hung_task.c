/*
 * kernel/hung_task.c - hdrslim example tree.
 *
 * Detects tasks stuck in uninterruptible sleep and dumps them.  One of the
 * two users of the scheduler's debugging helpers.
 */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/audit.h>
#include <linux/sched.h>

unsigned long sysctl_hung_task_timeout_secs = 120;
int sysctl_hung_task_warnings = 10;
bool sysctl_hung_task_panic;
bool sysctl_hung_task_all_backtrace;

static void check_hung_task(struct task_struct *t, unsigned long timeout)
{
	unsigned long switch_count = t->nvcsw + t->nivcsw;

	if (switch_count != t->last_switch_count) {
		t->last_switch_count = switch_count;
		return;
	}

	if (!sysctl_hung_task_warnings)
		return;
	if (sysctl_hung_task_warnings > 0)
		sysctl_hung_task_warnings--;

	pr_err("INFO: task %s:%d blocked for more than %lu seconds.\n",
	       t->comm, t->pid, timeout);
	sched_show_task(t);
	print_worker_info(KERN_ERR, t);
	if (audit_enabled)
		audit_log_format("hung task %d", t->pid);

	if (sysctl_hung_task_all_backtrace)
		show_state_filter(SCHED_DEBUG_FILTER_ALL);
	if (sysctl_hung_task_panic)
		panic("hung_task: blocked tasks\n");
}

void check_hung_uninterruptible_tasks(unsigned long timeout)
{
	struct task_struct *t;

	for_each_process(t) {
		if (t->state == TASK_UNINTERRUPTIBLE)
			check_hung_task(t, timeout);
	}
}
