#ifndef _LINUX_MM_H
#define _LINUX_MM_H
#include <linux/spinlock_types.h>
extern spinlock_t mm_lock;
#endif
