#include <linux/numa.h>

int max_nodes(void)
{
	return MAX_NUMNODES;
}
