#ifndef P_H
#define P_H

#include "s.h"

void p_reset(struct S *s);
int p_count(const struct S *s);
struct S *p_current(void);

#endif
