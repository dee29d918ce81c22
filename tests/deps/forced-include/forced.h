/* forced.h */
#define USE_FAST 1
#include "helper.h"
