/* GNU extension: raw string literal spanning lines */
const char *r = R"x(
#include "no.h"
)x";
#include "yes.h"
