#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

extern unsigned long volatile jiffies;

#define time_after(a, b) ((long)((b) - (a)) < 0)

#endif
