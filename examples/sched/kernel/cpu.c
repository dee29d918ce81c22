/*
 * kernel/cpu.c - hdrslim example tree.
 *
 * CPU hotplug state machine.  The only user of the scheduler's hotplug
 * callbacks in the example tree.
 */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/sched.h>

struct cpuhp_step {
	const char	*name;
	int		(*startup)(unsigned int cpu);
	int		(*teardown)(unsigned int cpu);
};

static struct cpuhp_step cpuhp_ap_states[] = {
	{
		.name		= "sched:starting",
		.startup	= sched_cpu_starting,
		.teardown	= sched_cpu_dying,
	},
	{
		.name		= "sched:active",
		.startup	= sched_cpu_activate,
		.teardown	= sched_cpu_deactivate,
	},
};

static int cpuhp_invoke_callback(unsigned int cpu, unsigned int state,
				 bool bringup)
{
	struct cpuhp_step *step = &cpuhp_ap_states[state];
	int (*cb)(unsigned int cpu);

	cb = bringup ? step->startup : step->teardown;
	if (!cb)
		return 0;
	return cb(cpu);
}

int cpuhp_bringup_cpu(unsigned int cpu)
{
	unsigned int state;
	int ret;

	for (state = 0; state < ARRAY_SIZE(cpuhp_ap_states); state++) {
		ret = cpuhp_invoke_callback(cpu, state, true);
		if (ret) {
			pr_err("cpuhp: %s failed on cpu%u: %d\n",
			       cpuhp_ap_states[state].name, cpu, ret);
			return ret;
		}
	}
	return 0;
}

int cpuhp_teardown_cpu(unsigned int cpu)
{
	unsigned int state = ARRAY_SIZE(cpuhp_ap_states);
	int ret;

	while (state--) {
		ret = cpuhp_invoke_callback(cpu, state, false);
		if (ret)
			return ret;
	}
	return 0;
}

/* Move every task off a CPU that is going away. */
void migrate_tasks_off(unsigned int dead_cpu)
{
	struct task_struct *p;

	for_each_process(p) {
		if (!cpumask_test_cpu(dead_cpu, tsk_cpus_allowed(p)))
			continue;
		if (cpumask_weight(tsk_cpus_allowed(p)) == 1)
			pr_info("process %d (%s) no longer affine to cpu%u\n",
				p->pid, p->comm, dead_cpu);
		set_task_cpu(p, cpumask_first(cpu_online_mask));
	}
}

/* Called by the idle task of a CPU that has been taken down. */
void cpuhp_report_idle_dead(void)
{
	idle_task_exit();
}
