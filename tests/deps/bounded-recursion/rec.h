/* rec.h: includes itself until DEPTH reaches 3 */
#ifndef DEPTH
#define DEPTH 1
#elif DEPTH == 1
#undef DEPTH
#define DEPTH 2
#elif DEPTH == 2
#undef DEPTH
#define DEPTH 3
#endif
#if DEPTH < 3
#include "rec.h"
#else
#include "rec_done.h"
#endif
