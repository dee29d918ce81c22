/* sub/s.h */
#include "../p.h"
