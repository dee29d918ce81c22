#include <linux/module.h>
#include <linux/mm.h>
#ifdef CONFIG_RT_MUTEXES
#include <linux/rtmutex.h>
#endif

spinlock_t *locks[] = { &module_lock, &mm_lock };
#ifdef CONFIG_RT_MUTEXES
int *lock_depth = &max_lock_depth;
#endif
