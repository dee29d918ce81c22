#ifndef DEFINE_TRACE_H
#define DEFINE_TRACE_H

#include <stage.h>

int trace_enabled(void);

#ifdef TRACE_FILE
#include TRACE_FILE
#endif

#endif
