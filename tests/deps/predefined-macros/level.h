/* level.h */
#if __INCLUDE_LEVEL__ == 1
#include "level1.h"
#endif
