#ifndef UMBRELLA_H
#define UMBRELLA_H

#include "list.h"
#include "spinlock.h"

struct umbrella {
	struct list_head node;
	spinlock_t lock;
	int count;
};

int umbrella_count(const struct umbrella *u);

#endif
