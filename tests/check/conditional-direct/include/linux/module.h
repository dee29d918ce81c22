#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H
#include <linux/spinlock_types.h>
extern spinlock_t module_lock;
#endif
