#if !defined(__ASM_GENERIC_BITOPS_H)
#define __ASM_GENERIC_BITOPS_H
# if ! defined ( X ) || 0
#  include_next <bitops.h>
# endif
#endif
