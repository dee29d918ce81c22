#ifndef _LINUX_SCHED_EXT_H
#define _LINUX_SCHED_EXT_H
#define SCX_SLOTS 2
#ifdef CONFIG_SCHED_CLASS_EXT
#include <linux/workqueue_types.h>
struct scx_entity { struct work_struct kick; };
#endif
#endif
