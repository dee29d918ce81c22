#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H
#include <linux/timer.h>
#include <linux/workqueue_types.h>
struct delayed_work { struct work_struct work; struct timer_list timer; };
#endif
