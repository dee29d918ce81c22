#if defined(__has_include)
#include "has_has_include.h"
#endif
#ifdef __has_include
#endif

#if __has_include("probe_q.h")
#include "yes_q.h"
#else
#include "no_q.h"
#endif
#if __has_include("missing_q.h")
#include "yes_mq.h"
#else
#include "no_mq.h"
#endif
#if __has_include(<probe_a.h>)
#include "yes_a.h"
#else
#include "no_a.h"
#endif
#if __has_include(<missing_a.h>) || __has_include(<probe_q.h>)
#include "yes_ma.h"
#else
#include "no_ma.h"
#endif
#define PROBE_MACRO "probe_q.h"
#if __has_include(PROBE_MACRO)
#include "yes_macro.h"
#endif
#if __has_include("adir.h")
#include "yes_dir.h"
#else
#include "no_dir.h"
#endif
#include <n.h>
