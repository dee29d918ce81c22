/* noeol.h: no newline at the end */
#include "noeol_inner.h"