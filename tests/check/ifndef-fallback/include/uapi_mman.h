#ifndef UAPI_MMAN_H
#define UAPI_MMAN_H

#include <asm/mman.h>

#define MREMAP_MAYMOVE 1

#endif
