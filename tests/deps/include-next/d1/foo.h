/* d1/foo.h */
#include_next <foo.h>
