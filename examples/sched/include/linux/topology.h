/*
 * include/linux/topology.h - hdrslim example tree.
 *
 * CPU <-> NUMA node mapping.
 */
#ifndef _LINUX_TOPOLOGY_H
#define _LINUX_TOPOLOGY_H

#include <linux/cpumask.h>

#define NUMA_NO_NODE	(-1)

extern int nr_node_ids;

extern int numa_node_id(void);
extern int cpu_to_node(int cpu);
extern const struct cpumask *cpumask_of_node(int node);

static inline int cpu_on_node(int cpu, int node)
{
	return cpumask_test_cpu(cpu, cpumask_of_node(node));
}

#endif /* _LINUX_TOPOLOGY_H */
