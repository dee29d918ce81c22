#if defined(MODE_A)
#include "a.h"
#elif defined MODE_B
#include "b.h"
#elif defined(MODE_C) && MODE_C > 2
#include "c.h"
#elif defined(MODE_C)
#include "c0.h"
#else
#include "none.h"
#endif

#ifdef MODE_A
#include "a2.h"
#else
#include "not_a.h"
#endif

#if 1
#include "always.h"
#elif 1/0
#include "never.h"
#else
#include "never2.h"
#endif

#if (defined(MODE_A) || defined(MODE_B)) && !defined(MODE_C)
#include "a_or_b.h"
#endif
