/* d1/wrap.h */
#include_next <wrap.h>
