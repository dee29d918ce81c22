#ifndef _LINUX_TOPOLOGY_H
#define _LINUX_TOPOLOGY_H
#ifdef CONFIG_NUMA
#include <linux/nodemask.h>
#define nr_online_nodes 2
#else
#define nr_online_nodes 1
#endif
#endif
