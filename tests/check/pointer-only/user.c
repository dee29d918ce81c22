#include "p.h"

int user_reset(void)
{
	p_reset(p_current());
	return p_count(p_current());
}
