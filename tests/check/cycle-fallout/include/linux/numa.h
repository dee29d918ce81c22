#ifndef _LINUX_NUMA_H
#define _LINUX_NUMA_H
#include <linux/types.h>

#define MAX_NUMNODES 4
#define numa_map_to_online_node(node) numa_nearest_node(node, N_ONLINE)

int numa_nearest_node(int node, ulong state);
#endif
