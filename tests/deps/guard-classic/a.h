#ifndef A_H
#define A_H
#include "inner.h"
#ifdef SECOND
#include "second.h"
#endif
#endif /* A_H */
