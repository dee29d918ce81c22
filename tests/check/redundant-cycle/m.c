#include "a.h"
#include "b.h"
int f(struct a *p) { return p->x; }
