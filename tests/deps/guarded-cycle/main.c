#include "b.h"
#include "a.h"
#include "c.h"
#include "self.h"
