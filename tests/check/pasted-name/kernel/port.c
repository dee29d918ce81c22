#include <asm/io.h>

void port_reset(void)
{
	outb_p(0, 0x80);
	outw_p(1, 0x80);
}
