#include "../common/c.h"
#include <x.h>
#include "./dot.h"
#include "sub//d.h"
#include "sub/../up.h"
