#include "rec.h"
#include "after.h"
