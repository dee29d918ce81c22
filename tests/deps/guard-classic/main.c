#include "a.h"
#include "c.h"
#define SECOND
#include "a.h"
#include "c.h"
#ifdef REOPEN
#undef A_H
#endif
#include "a.h"
