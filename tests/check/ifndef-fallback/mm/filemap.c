#include <mman.h>
#include <asm/mman.h>

int filemap_bits(void)
{
	return vm_bits(1) + arch_calc_bits(2);
}
