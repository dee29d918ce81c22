#pragma once
/* p.h */
#ifdef SECOND
#include "second.h"
#endif
