#include "umbrella.h"

int umbrella_count(const struct umbrella *u)
{
	return u->count;
}
