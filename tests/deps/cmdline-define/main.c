#ifdef FEATURE
#include "feature_defined.h"
#else
#include "feature_undefined.h"
#endif
#if FEATURE + 0 > 0
#include "feature_on.h"
#endif
#if FEATURE + 0 > 1
#include "feature_gt1.h"
#endif
#ifdef SEL
#if SEL(0, 1)
#include "sel.h"
#endif
#endif
