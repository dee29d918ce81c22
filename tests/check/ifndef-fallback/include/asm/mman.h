#ifndef ASM_MMAN_H
#define ASM_MMAN_H

#define arch_calc_bits(prot) ((prot) * 2)

#endif
