#include "before.h"
#if 0
#include "zero.h"
#include <nonexistent/header.h>
This isn't C: don't mind 'unbalanced apostrophes or "quotes
#endif
#if 0
#elif 0
#include "zero2.h"
#else
#include "else.h"
#endif
#if 0 /* nested */
#if 1
#include "zero3.h"
#endif
#endif
#if (0)
#include "zero4.h"
#endif
#if 0x0
#include "zero5.h"
#endif
#include "after.h"
