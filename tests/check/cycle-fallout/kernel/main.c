#include <asm/cpu.h>

int first_online_node_of(int cpu)
{
	return numa_map_to_online_node(cpu_device(cpu)->numa_node) % nr_online_nodes;
}
