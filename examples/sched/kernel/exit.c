/*
 * kernel/exit.c - hdrslim example tree.
 *
 * Process teardown: unhashing a task from the process lists and the last
 * call into the scheduler.  Includes what it uses.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>

static int nr_threads_exited;

static void __unhash_process(struct task_struct *p, bool group_dead)
{
	nr_threads_exited++;
	if (group_dead) {
		list_del_init(&p->tasks);
		list_del_init(&p->sibling);
	}
	list_del(&p->thread_group);
}

void exit_signals(struct task_struct *tsk)
{
	threadgroup_change_begin(tsk);
	tsk->flags |= PF_EXITING;
	threadgroup_change_end(tsk);
}

void release_task(struct task_struct *p)
{
	struct task_struct *leader = p->group_leader;

	__unhash_process(p, thread_group_leader(p));
	put_task_struct(p);
	if (leader != p && leader->exit_state == EXIT_ZOMBIE)
		leader->exit_state = EXIT_DEAD;
}

void do_exit(long code)
{
	struct task_struct *tsk = current;

	exit_signals(tsk);
	tsk->exit_code = code;
	if (tsk->mm)
		mmput(tsk->mm);
	tsk->mm = NULL;
	exit_task_namespaces(tsk);
	tsk->exit_state = EXIT_ZOMBIE;
	tsk->state = TASK_DEAD;
	schedule();
}
