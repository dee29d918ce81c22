#define TRACE_FILE <trace_foo.h>
#include <define_trace.h>

int foo_count(void)
{
	return foo_events;
}
