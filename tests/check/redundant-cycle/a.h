#ifndef A_H
#define A_H
#include "b.h"
struct a { int x; };
#endif
