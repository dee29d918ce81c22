/* d1/bar.h */
#include_next <bar.h>
