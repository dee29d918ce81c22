#include "same.h"
#include <same.h>
#include <other.h>
int main(void) { return 0; }
