/* z.h */
#include "y.h"
