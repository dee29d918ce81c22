#ifndef _LINUX_NODEMASK_H
#define _LINUX_NODEMASK_H
#include <linux/nodemask_types.h>

enum node_states { N_POSSIBLE, N_ONLINE, NR_NODE_STATES };
extern nodemask_t node_states[NR_NODE_STATES];
#endif
