#ifndef _LINUX_SPINLOCK_TYPES_H
#define _LINUX_SPINLOCK_TYPES_H
#ifndef CONFIG_PREEMPT_RT
typedef struct spinlock {
	int raw;
} spinlock_t;
#else
#include <linux/rtmutex.h>
typedef struct spinlock {
	struct rt_mutex_base lock;
} spinlock_t;
#endif
#endif
