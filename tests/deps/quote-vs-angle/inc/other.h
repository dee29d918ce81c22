/* inc/other.h */
#include "peer.h"
