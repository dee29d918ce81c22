#include <linux/kconfig.h>

#if IS_ENABLED(CONFIG_FOO)
#include "foo.h"
#endif
#if IS_ENABLED(CONFIG_BAR)
#include "bar.h"
#else
#include "bar_stub.h"
#endif
#if IS_ENABLED(CONFIG_BAZ)
#include "baz.h"
#endif
#if IS_BUILTIN(CONFIG_BAZ)
#include "baz_builtin.h"
#endif
#if IS_MODULE(CONFIG_BAZ) && !IS_REACHABLE(CONFIG_BAZ)
#include "baz_unreachable.h"
#endif
#if IS_ENABLED(CONFIG_QUX)
#include "qux.h"
#endif
#if IS_BUILTIN(CONFIG_FOO) && !IS_MODULE(CONFIG_FOO)
#include "foo_builtin.h"
#endif
