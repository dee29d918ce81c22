#ifndef SPINLOCK_H
#define SPINLOCK_H

typedef struct {
	int locked;
} spinlock_t;

#endif
