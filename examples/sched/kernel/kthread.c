/*
 * kernel/kthread.c - hdrslim example tree.
 *
 * Kernel thread creation: requests are queued on a list and picked up by
 * kthreadd.  This file includes nothing but <linux/sched.h>.
 */
#include <linux/sched.h>

struct kthread_create_info {
	int (*threadfn)(void *data);
	void *data;
	int ret;
	struct task_struct *result;
	struct list_head list;
};

static LIST_HEAD(kthread_create_list);
struct task_struct *kthreadd_task;

static void create_kthread(struct kthread_create_info *create)
{
	int pid;

	pid = kernel_thread(create->threadfn, create->data, 0);
	create->ret = pid;
	if (pid >= 0) {
		create->result = get_task_struct(find_task_by_vpid(pid));
		create->result->nsproxy = get_nsproxy(&init_nsproxy);
	}
}

void kthread_queue_create(struct kthread_create_info *create)
{
	list_add_tail(&create->list, &kthread_create_list);
	wake_up_process(kthreadd_task);
}

int kthreadd(void *unused)
{
	struct task_struct *tsk = current;

	tsk->flags |= PF_NOFREEZE;

	for (;;) {
		tsk->state = TASK_INTERRUPTIBLE;
		if (list_empty(&kthread_create_list))
			schedule();
		tsk->state = TASK_RUNNING;

		while (!list_empty(&kthread_create_list)) {
			struct kthread_create_info *create;

			create = list_entry(kthread_create_list.next,
					    struct kthread_create_info, list);
			list_del_init(&create->list);
			create_kthread(create);
			if (create->result)
				put_task_struct(create->result);
		}
	}

	return 0;
}
