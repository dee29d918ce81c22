#ifndef _LINUX_DEVICE_H
#define _LINUX_DEVICE_H
#include <linux/numa.h>
#ifdef CONFIG_NUMA
#include <linux/nodemask.h>
#endif

struct device {
	int numa_node;
#ifdef CONFIG_NUMA
	nodemask_t allowed;
#endif
};
extern int node_of_cpu[MAX_NUMNODES];
#endif
