#define S "unterminated
#include "a.h
#if X
char c = 'x;
#define T '\
#endif
const char *r = R"delim(
#include "in_raw.h"
)delim";
R"x(never closed
