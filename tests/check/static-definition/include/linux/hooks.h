#ifndef _LINUX_HOOKS_H
#define _LINUX_HOOKS_H
#define MAKE_HOOK(name) int hook_##name(void);

MAKE_HOOK(probe)
#endif
