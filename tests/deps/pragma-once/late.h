/* late.h: the pragma need not be the first line */
#define LATE_SEEN 1
#pragma once
#ifdef SECOND
#include "late_second.h"
#endif
