/*
 * kernel/fork.c - hdrslim example tree.
 *
 * Process creation.  A well-behaved user of <linux/sched.h>: it includes
 * every header whose declarations it uses, including the capability, mm,
 * atomics, namespace and seccomp headers that it needs for itself.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/mm_types.h>
#include <linux/atomic.h>
#include <linux/nsproxy.h>
#include <linux/seccomp.h>
#include <linux/sched.h>

#define CLONE_VM	0x00000100
#define CLONE_THREAD	0x00010000
#define SIGCHLD		17

int max_threads;
static int nr_threads;

extern struct task_struct *alloc_task_struct(void);
extern void free_task(struct task_struct *tsk);
extern struct mm_struct *allocate_mm(void);

static struct mm_struct *dup_mm(struct task_struct *tsk)
{
	struct mm_struct *mm, *oldmm = current->mm;

	mm = allocate_mm();
	if (!mm)
		return NULL;

	*mm = *oldmm;
	mm->mm_users.counter = 1;
	mm->mm_count.counter = 1;
	mm->locked_vm = 0;
	mm->owner = tsk;
	return mm;
}

static int copy_mm(unsigned long clone_flags, struct task_struct *tsk)
{
	struct mm_struct *mm, *oldmm = current->mm;

	tsk->mm = NULL;
	tsk->active_mm = NULL;

	/* Kernel threads have no user address space. */
	if (!oldmm)
		return 0;

	if (clone_flags & CLONE_VM) {
		oldmm->mm_users.counter++;
		mm = oldmm;
	} else {
		mm = dup_mm(tsk);
		if (!mm)
			return -ENOMEM;
	}

	tsk->mm = mm;
	tsk->active_mm = mm;
	return 0;
}

static struct task_struct *dup_task_struct(struct task_struct *orig)
{
	struct task_struct *tsk;

	tsk = alloc_task_struct();
	if (!tsk)
		return NULL;

	*tsk = *orig;
	atomic_set(&tsk->usage, 2);
	INIT_LIST_HEAD(&tsk->children);
	INIT_LIST_HEAD(&tsk->sibling);
	INIT_LIST_HEAD(&tsk->thread_group);

	cpumask_copy(&tsk->cpus_allowed, tsk_cpus_allowed(orig));
	tsk->nr_cpus_allowed = cpumask_weight(tsk_cpus_allowed(orig));
	return tsk;
}

struct task_struct *copy_process(unsigned long clone_flags, pid_t pid)
{
	struct task_struct *p;

	if (nr_threads >= max_threads &&
	    !capable(CAP_SYS_RESOURCE) && !capable(CAP_SYS_ADMIN))
		return NULL;

	p = dup_task_struct(current);
	if (!p)
		return NULL;

	if (copy_mm(clone_flags, p))
		goto bad_fork_free;
	if (copy_namespaces(clone_flags, p))
		goto bad_fork_free;
	copy_seccomp(p);

	p->pid = pid;
	p->flags |= PF_FORKNOEXEC;
	p->real_parent = current;
	p->parent = current;
	if (clone_flags & CLONE_THREAD) {
		p->exit_signal = -1;
		p->group_leader = current->group_leader;
		p->tgid = current->tgid;
	} else {
		p->exit_signal = SIGCHLD;
		p->group_leader = p;
		p->tgid = p->pid;
	}

	sched_fork(clone_flags, p);

	threadgroup_change_begin(current);
	if (thread_group_leader(p)) {
		list_add_tail(&p->sibling, &p->real_parent->children);
		list_add_tail(&p->tasks, &init_task.tasks);
	} else {
		list_add_tail(&p->thread_group, &p->group_leader->thread_group);
	}
	nr_threads++;
	threadgroup_change_end(current);

	return p;

bad_fork_free:
	free_task(p);
	return NULL;
}

long _do_fork(unsigned long clone_flags, pid_t pid)
{
	struct task_struct *p;

	p = copy_process(clone_flags, pid);
	if (!p)
		return -EAGAIN;

	get_task_struct(p);
	wake_up_new_task(p);
	return p->pid;
}
