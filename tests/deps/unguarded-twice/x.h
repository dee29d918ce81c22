/* x.h: no include guard */
#ifdef X_SEEN
#include "again.h"
#endif
#define X_SEEN
