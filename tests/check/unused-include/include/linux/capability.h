#ifndef _LINUX_CAPABILITY_H
#define _LINUX_CAPABILITY_H

int capable(int cap);

#endif
