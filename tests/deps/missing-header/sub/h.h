/* sub/h.h */
#include "gone.h"
#include "there.h"
