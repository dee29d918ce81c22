#include <linux/kconfig.h>
#if IS_ENABLED(CONFIG_FOO)
#include "foo.h"
#endif
#if IS_ENABLED(CONFIG_BAR) || IS_MODULE(CONFIG_BAZ)
#include "bar.h"
#elif IS_BUILTIN(CONFIG_QUX) && !IS_REACHABLE(CONFIG_BAZ)
#include "qux.h"
#else
#include "none.h"
#endif
#if defined(CONFIG_X86_64) && IS_ENABLED(CONFIG_SMP) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#endif
#if GCC_VERSION >= 40900 && __has_include(<linux/compiler_attributes.h>)
#endif
#if __has_include("x.h") || __has_include_next(<y.h>) || __has_attribute(__fallthrough__)
#endif
#define CONFIG_NEW_MODULE 1
#if IS_ENABLED(CONFIG_NEW) && IS_MODULE(CONFIG_NEW)
#endif
#undef CONFIG_FOO
#if !IS_ENABLED(CONFIG_FOO)
#endif
