#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H
typedef unsigned long ulong;
#endif
