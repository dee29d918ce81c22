/*
 * drivers/tty/sysrq.c - hdrslim example tree.
 *
 * The magic SysRq key.  One of the two users of the scheduler's debugging
 * helpers.
 */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/sched.h>

struct sysrq_key_op {
	int		key;
	void		(*handler)(int key);
	const char	*help_msg;
	const char	*action_msg;
};

static void sysrq_handle_showstate(int key)
{
	show_state();
}

static void sysrq_handle_showstate_blocked(int key)
{
	show_state_filter(TASK_UNINTERRUPTIBLE);
}

static void sysrq_handle_showallcpus(int key)
{
	int cpu;

	for_each_online_cpu(cpu)
		dump_cpu_task(cpu);
}

static const struct sysrq_key_op sysrq_key_table[] = {
	{
		.key		= 'l',
		.handler	= sysrq_handle_showallcpus,
		.help_msg	= "show-backtrace-all-active-cpus(l)",
		.action_msg	= "Show backtrace of all active CPUs",
	},
	{
		.key		= 't',
		.handler	= sysrq_handle_showstate,
		.help_msg	= "show-task-states(t)",
		.action_msg	= "Show State",
	},
	{
		.key		= 'w',
		.handler	= sysrq_handle_showstate_blocked,
		.help_msg	= "show-blocked-tasks(w)",
		.action_msg	= "Show Blocked State",
	},
};

static const struct sysrq_key_op *__sysrq_get_key_op(int key)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sysrq_key_table); i++)
		if (sysrq_key_table[i].key == key)
			return &sysrq_key_table[i];
	return NULL;
}

void __handle_sysrq(int key)
{
	const struct sysrq_key_op *op_p = __sysrq_get_key_op(key);
	unsigned int i;

	if (op_p) {
		printk(KERN_INFO "sysrq: %s\n", op_p->action_msg);
		op_p->handler(key);
		return;
	}

	printk(KERN_INFO "sysrq: HELP :");
	for (i = 0; i < ARRAY_SIZE(sysrq_key_table); i++)
		printk(KERN_INFO " %s", sysrq_key_table[i].help_msg);
	printk(KERN_INFO "\n");
}
