#ifndef ARCH_TYPES_H
#define ARCH_TYPES_H

typedef unsigned short old_uid_t;
#define old_uid_t old_uid_t
#include <generic_types.h>

#endif
