#if defined(A)
# if defined(B)
#  include "ab.h"
# elif C > 1
#  include "a_c.h"
#  if C > 5
#   include "a_c5.h"
#  else
#   if !defined(B)
#    include "a_c_deep.h"
#   endif
#  endif
# else
#  include "a_only.h"
# endif
#else
# if 0
#  if garbage (((
#   include "never.h"
#  elif more garbage ) )
#   include "never2.h"
#  else
#   error not reached
#  endif
#  frobnicate this is not a directive
# else
#  ifdef B
#   include "b_only.h"
#  else
#   include "neither.h"
#  endif
# endif
#endif
#ifdef A
#elif defined B
#include "tail_b.h"
#endif
