#pragma once
/* c.h */
#include "d.h"
