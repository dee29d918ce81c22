#include "p.h"
#include "late.h"
#define SECOND
#include "p.h"
#include "sub/../p.h"
#include "late.h"
#if defined(SECOND)
#include "sub/s.h"
#endif
#ifdef VIA_I
#include <p.h>
#endif
