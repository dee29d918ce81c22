#include "ok.h"
int x;
/* never closed
#include "hidden.h"
