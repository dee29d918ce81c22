/*
 * kernel/cpuset.c - hdrslim example tree.
 *
 * Restricting tasks to sets of CPUs.  Reads a task's allowed CPUs in
 * several places.
 */
#include <linux/errno.h>
#include <linux/cpumask.h>
#include <linux/sched.h>

void cpuset_cpus_allowed(struct task_struct *tsk, struct cpumask *pmask)
{
	if (!cpumask_and(pmask, tsk_cpus_allowed(tsk), cpu_online_mask))
		cpumask_copy(pmask, cpu_online_mask);
}

int cpuset_can_attach_task(struct task_struct *task,
			   const struct cpumask *effective_cpus)
{
	if (task->flags & PF_NO_SETAFFINITY)
		return -EINVAL;
	if (!cpumask_intersects(tsk_cpus_allowed(task), effective_cpus))
		return -EBUSY;
	return 0;
}

int cpuset_attach_task(struct task_struct *task,
		       const struct cpumask *effective_cpus)
{
	return set_cpus_allowed_ptr(task, effective_cpus);
}
