#ifndef B_H
#define B_H
#include "a.h"
int b_fn(void);
#endif
