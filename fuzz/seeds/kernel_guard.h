/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

/*
 * Define 'struct task_struct' and provide the main scheduler
 * APIs (schedule(), wakeup variants, etc.)
 */
#include <uapi/linux/sched.h>
#include <asm/current.h>
#include <linux/pid.h>
#include "sched/prio.h"

#ifdef CONFIG_SCHED_INFO
# include <linux/sched_info.h>
#elif defined(CONFIG_SCHEDSTATS) && \
      CONFIG_NR_CPUS > 1
# include <linux/schedstats.h>
#else
#endif

#define TASK_RUNNING 0x00000000
#define __set_current_state(state_value) \
	do { WRITE_ONCE(current->__state, (state_value)); } while (0)

struct task_struct;
#endif /* _LINUX_SCHED_H */
