#include <x.h>
#include <y.h>
#include <stddef.h>
#include "q.h"
