/* d2/foo.h */
#include_next "foo.h"
