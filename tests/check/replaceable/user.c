#include "umbrella.h"

void init_node(struct list_head *node)
{
	INIT_LIST_HEAD(node);
}
