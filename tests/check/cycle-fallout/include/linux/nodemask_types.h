#ifndef _LINUX_NODEMASK_TYPES_H
#define _LINUX_NODEMASK_TYPES_H
#include <linux/numa.h>

typedef struct {
	ulong bits[MAX_NUMNODES];
} nodemask_t;
#endif
