#include <linux/hooks.h>

static int my_probe(void)
{
	return 0;
}

int (*probe_fn)(void) = my_probe;
