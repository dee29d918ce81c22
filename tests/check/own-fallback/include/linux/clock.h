#ifndef _LINUX_CLOCK_H
#define _LINUX_CLOCK_H
#ifdef CONFIG_UNSTABLE_CLOCK
extern int clock_stable(void);
#endif
#endif
