#ifndef _LINUX_RTMUTEX_H
#define _LINUX_RTMUTEX_H
extern int max_lock_depth;
struct rt_mutex_base {
	int owner;
};
#endif
