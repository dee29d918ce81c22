/*
 * include/linux/sched.h - hdrslim example tree.
 *
 * The "Rome" header of the example: every .c file in the tree includes it,
 * and over the years it has collected includes, declarations and helpers
 * that most of its users never need.  It is the input of the hdrslim demo;
 * examples/sched/README.md lists what the tool is expected to find here.
 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/capability.h>
#include <linux/spinlock.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/mm_types.h>
#include <linux/atomic.h>
#include <linux/nsproxy.h>
#include <linux/seccomp.h>

struct files_struct;
struct signal_struct;
struct perf_event_context;
struct pid_namespace;
struct autogroup;

/* Task state bitmask, see tsk->state and tsk->exit_state: */
#define TASK_RUNNING			0x0000
#define TASK_INTERRUPTIBLE		0x0001
#define TASK_UNINTERRUPTIBLE		0x0002
#define __TASK_STOPPED			0x0004
#define __TASK_TRACED			0x0008
/* Used in tsk->exit_state: */
#define EXIT_DEAD			0x0010
#define EXIT_ZOMBIE			0x0020
#define EXIT_TRACE			(EXIT_ZOMBIE | EXIT_DEAD)
/* Used in tsk->state again: */
#define TASK_DEAD			0x0040
#define TASK_WAKEKILL			0x0080
#define TASK_WAKING			0x0100
#define TASK_NOLOAD			0x0200

#define TASK_KILLABLE			(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_STOPPED			(TASK_WAKEKILL | __TASK_STOPPED)
#define TASK_TRACED			(TASK_WAKEKILL | __TASK_TRACED)
#define TASK_IDLE			(TASK_UNINTERRUPTIBLE | TASK_NOLOAD)

#define task_is_traced(task)		((task->state & __TASK_TRACED) != 0)
#define task_is_stopped(task)		((task->state & __TASK_STOPPED) != 0)

/* Scheduling policies: */
#define SCHED_NORMAL			0
#define SCHED_FIFO			1
#define SCHED_RR			2
#define SCHED_BATCH			3
#define SCHED_IDLE			5
#define SCHED_DEADLINE			6

#define TASK_COMM_LEN			16

/* Per-task flags (tsk->flags): */
#define PF_IDLE				0x00000002
#define PF_EXITING			0x00000004
#define PF_FORKNOEXEC			0x00000040
#define PF_SUPERPRIV			0x00000100
#define PF_NOFREEZE			0x00008000
#define PF_KTHREAD			0x00200000
#define PF_NO_SETAFFINITY		0x04000000

enum perf_event_task_context {
	perf_invalid_context = -1,
	perf_hw_context = 0,
	perf_sw_context,
	perf_nr_task_contexts,
};

enum sched_tunable_scaling {
	SCHED_TUNABLESCALING_NONE,
	SCHED_TUNABLESCALING_LOG,
	SCHED_TUNABLESCALING_LINEAR,
	SCHED_TUNABLESCALING_END,
};

struct sched_param {
	int sched_priority;
};

struct sched_entity {
	u64				exec_start;
	u64				sum_exec_runtime;
	u64				vruntime;
	u64				prev_sum_exec_runtime;
	u64				nr_migrations;
	struct list_head		group_node;
	unsigned int			on_rq;
};

struct sched_rt_entity {
	struct list_head		run_list;
	unsigned long			timeout;
	unsigned int			time_slice;
	unsigned short			on_rq;
	unsigned short			on_list;
};

struct task_struct {
	volatile long			state;
	void				*stack;
	atomic_t			usage;
	unsigned int			flags;
	unsigned int			ptrace;

#ifdef CONFIG_SMP
	int				on_cpu;
	unsigned int			cpu;
	unsigned int			wakee_flips;
	int				wake_cpu;
#endif
	int				on_rq;

	int				prio;
	int				static_prio;
	int				normal_prio;
	unsigned int			rt_priority;

	struct sched_entity		se;
	struct sched_rt_entity		rt;

	unsigned int			policy;
	int				nr_cpus_allowed;
	cpumask_t			cpus_allowed;

	struct list_head		tasks;

	struct mm_struct		*mm;
	struct mm_struct		*active_mm;

	int				exit_state;
	int				exit_code;
	int				exit_signal;

	pid_t				pid;
	pid_t				tgid;

	struct task_struct		*real_parent;
	struct task_struct		*parent;
	struct list_head		children;
	struct list_head		sibling;
	struct task_struct		*group_leader;
	struct list_head		thread_group;

	u64				utime;
	u64				stime;
	unsigned long			nvcsw;
	unsigned long			nivcsw;
	unsigned long			last_switch_count;
	u64				start_time;

	char				comm[TASK_COMM_LEN];

	struct files_struct		*files;
	struct signal_struct		*signal;
	struct nsproxy			*nsproxy;
	struct seccomp			seccomp;

	/* Protection of mm, files, comm: */
	spinlock_t			alloc_lock;
	/* Protection of the PI data structures: */
	raw_spinlock_t			pi_lock;

	struct perf_event_context	*perf_event_ctxp[perf_nr_task_contexts];
	void				*journal_info;
	int				pagefault_disabled;
};

extern struct task_struct init_task;

extern struct task_struct *get_current(void);
#define current get_current()

#define next_task(p) \
	list_entry((p)->tasks.next, struct task_struct, tasks)

#define for_each_process(p) \
	for (p = &init_task ; (p = next_task(p)) != &init_task ; )

static inline bool thread_group_leader(const struct task_struct *p)
{
	return p->exit_signal >= 0;
}

static inline bool is_idle_task(const struct task_struct *p)
{
	return !!(p->flags & PF_IDLE);
}

extern void schedule(void);
extern long schedule_timeout(long timeout);
extern int wake_up_process(struct task_struct *tsk);
extern void wake_up_new_task(struct task_struct *tsk);
extern void sched_fork(unsigned long clone_flags, struct task_struct *p);
extern void set_user_nice(struct task_struct *p, long nice);
extern int task_nice(const struct task_struct *p);

struct sched_param;
extern int sched_setscheduler(struct task_struct *p, int policy,
			      const struct sched_param *param);

extern long sched_setaffinity(pid_t pid, const struct cpumask *new_mask);
extern long sched_getaffinity(pid_t pid, struct cpumask *mask);
extern int set_cpus_allowed_ptr(struct task_struct *p,
				const struct cpumask *new_mask);

extern struct task_struct *find_task_by_vpid(pid_t nr);
extern struct task_struct *find_task_by_pid_ns(pid_t nr,
					       struct pid_namespace *ns);
extern pid_t kernel_thread(int (*fn)(void *), void *arg, unsigned long flags);

extern struct mm_struct *get_task_mm(struct task_struct *task);
extern void mmput(struct mm_struct *mm);

extern char *__get_task_comm(char *to, size_t len, struct task_struct *tsk);
#define get_task_comm(buf, tsk) __get_task_comm(buf, sizeof(buf), tsk)

static inline const struct cpumask *tsk_cpus_allowed(struct task_struct *tsk)
{
	return &tsk->cpus_allowed;
}

extern void cgroup_threadgroup_change_begin(struct task_struct *tsk);
extern void cgroup_threadgroup_change_end(struct task_struct *tsk);

static inline void threadgroup_change_begin(struct task_struct *tsk)
{
	cgroup_threadgroup_change_begin(tsk);
}

static inline void threadgroup_change_end(struct task_struct *tsk)
{
	cgroup_threadgroup_change_end(tsk);
}

#ifdef CONFIG_SMP
static inline unsigned int task_cpu(const struct task_struct *p)
{
	return p->cpu;
}

extern void set_task_cpu(struct task_struct *p, unsigned int cpu);
extern void kick_process(struct task_struct *tsk);
extern void sched_exec(void);
#else
static inline unsigned int task_cpu(const struct task_struct *p)
{
	return 0;
}

static inline void set_task_cpu(struct task_struct *p, unsigned int cpu)
{
}

static inline void kick_process(struct task_struct *tsk) { }
#define sched_exec()		{}
#endif /* CONFIG_SMP */

static inline int task_node(const struct task_struct *p)
{
	return cpu_to_node(task_cpu(p));
}

/*
 * Debugging: dump task state to the console.
 */
#define SCHED_DEBUG_FILTER_ALL		0UL

extern void show_state_filter(unsigned long state_filter);

static inline void show_state(void)
{
	show_state_filter(SCHED_DEBUG_FILTER_ALL);
}

extern void sched_show_task(struct task_struct *p);
extern void dump_cpu_task(int cpu);
extern void print_worker_info(const char *log_lvl, struct task_struct *task);

/*
 * CPU hotplug callbacks of the scheduler.
 */
extern int sched_cpu_starting(unsigned int cpu);
extern int sched_cpu_activate(unsigned int cpu);
extern int sched_cpu_deactivate(unsigned int cpu);

#ifdef CONFIG_HOTPLUG_CPU
extern int sched_cpu_dying(unsigned int cpu);
extern void idle_task_exit(void);
#else
#define sched_cpu_dying			NULL
static inline void idle_task_exit(void) { }
#endif

/*
 * Reference counting of tasks.
 */
extern void __put_task_struct(struct task_struct *t);

static inline struct task_struct *get_task_struct(struct task_struct *t)
{
	atomic_inc(&t->usage);
	return t;
}

static inline void put_task_struct(struct task_struct *t)
{
	if (atomic_dec_and_test(&t->usage))
		__put_task_struct(t);
}

#endif /* _LINUX_SCHED_H */
