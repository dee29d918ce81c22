#include <h.h>
#include <only_sys.h>
