#include <stdio.h>
#include <stdint.h>
#include <limits.h>
#include <stdarg.h>
#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <assert.h>
#include "local.h"
#if defined(UINT64_MAX) && defined(EOF) && INT_MAX == 2147483647
#include "after_sys.h"
#endif
#ifdef __USE_GNU
#include "use_gnu.h"
#endif
#if defined(__USE_FILE_OFFSET64)
#include "offset64.h"
#endif
