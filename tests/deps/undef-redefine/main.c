#define V 1
#if V == 1
#include "v1.h"
#endif
#undef V
#ifdef V
#include "bad_still_defined.h"
#endif
#if V == 0
#include "v_gone.h"
#endif
#define V 2
#if V == 2
#include "v2.h"
#endif
#undef V
#define V(x) x * 3
#if V(2) == 6
#include "v_func.h"
#endif
#undef NEVER_DEFINED
#undef V
#define V
#ifdef V
#include "v_empty.h"
#endif

#define FROM_MAIN 1
#include "flip.h"
#ifdef FROM_MAIN
#include "bad_from_main.h"
#endif
#if FROM_HDR == 5
#include "from_hdr.h"
#endif

#ifdef CMD
#include "cmd_seen.h"
#undef CMD
#endif
#ifdef CMD
#include "bad_cmd.h"
#endif
