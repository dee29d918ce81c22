#include "b.h"

int main(void)
{
	return b_fn(0) + (int)c_fn();
}
