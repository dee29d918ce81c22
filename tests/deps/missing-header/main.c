#include "present.h"
#include "missing.h"
#include <sys/missing_sys.h>
#include "sub/h.h"
#include <inc_missing.h>
#include "after.h"
