#ifndef _LINUX_TIMER_H
#define _LINUX_TIMER_H
#include <linux/sched_ext.h>
struct timer_list { unsigned long expires[SCX_SLOTS]; };
#endif
