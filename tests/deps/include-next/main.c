#include <foo.h>
#include <bar.h>
#include "wrap.h"
