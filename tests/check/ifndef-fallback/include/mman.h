#ifndef MMAN_H
#define MMAN_H

#include <uapi_mman.h>

#ifndef arch_calc_bits
#define arch_calc_bits(prot) 0
#endif

static inline int vm_bits(int prot)
{
	return arch_calc_bits(prot) + MREMAP_MAYMOVE;
}

#endif
