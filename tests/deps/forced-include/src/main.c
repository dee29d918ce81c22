#ifdef USE_FAST
#include "fast.h"
#else
#include "slow.h"
#endif
#if CFG_LEVEL > 1
#include "level2.h"
#endif
