#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
#define PATH_MACRO gen/z.h
#include __stringify(PATH_MACRO)
#ifndef PLAT
#define PLAT foo
#endif
#include __stringify(CAT(plat_, PLAT).h)
#include HDR
#include AHDR
#include ARCH_HDR(io.h)
#define TRACE_INCLUDE(system) __stringify(trace/events/system.h)
#include TRACE_INCLUDE(sched)
#include_next MISSING
#include <sys/ LPAREN .h>
#include STR
#define SYS <sys/types.h>
#include SYS
