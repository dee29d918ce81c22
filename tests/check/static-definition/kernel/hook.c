#include <linux/hooks.h>

int hook_probe(void)
{
	return 1;
}
