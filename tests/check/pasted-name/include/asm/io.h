#ifndef _ASM_IO_H
#define _ASM_IO_H

#include <asm/shared/io.h>

static inline void slow_down_io(void)
{
}

#define BUILDIO(bwl, type)					\
static inline void out##bwl##_p(type value, unsigned short port)	\
{								\
	out##bwl(value, port);					\
	slow_down_io();						\
}

BUILDIO(b, unsigned char)
BUILDIO(w, unsigned short)

#endif
