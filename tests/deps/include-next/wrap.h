/* wrap.h (next to main.c) */
#include_next <wrap.h>
