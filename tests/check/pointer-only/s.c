#include "s.h"

int s_get(const struct S *s)
{
	return s->x;
}
