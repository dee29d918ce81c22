/* d1/n.h */
#if __has_include_next(<n.h>)
#include_next <n.h>
#endif
#if __has_include_next(<probe_a.h>)
#include "next_probe_a.h"
#endif
