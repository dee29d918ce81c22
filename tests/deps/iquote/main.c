#include "a.h"
#include <b.h>
#include "local.h"
