#ifndef B_H
#define B_H

#include "c.h"

int b_fn(c_t v);

#endif
