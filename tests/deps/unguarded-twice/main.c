#include "x.h"
#include "y.h"
#include "z.h"
#include "x.h"
