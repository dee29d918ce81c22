#inc\
lude "a.h"
#include \
"b.h"
#\
include "c.h"
#include "d\
.h"
#if defined(A) && \
    defined(B)
#include "ab.h"
#endif
#if 1 \
 && 0
#include "bad.h"
#endif
#define MULTI \
   "m.h"
#include MULTI
#define LONGCOND (1 + \
  2)
#if LONGCOND == 3
#include "e.h"
#endif
#define NOTHING /* \
 #include "no.h" \
*/
