#include <x.h>
#include "q.h"
