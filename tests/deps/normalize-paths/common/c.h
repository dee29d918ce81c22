/* common/c.h */
#include "../inc/y.h"
