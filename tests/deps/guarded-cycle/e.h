#pragma once
/* e.h */
#include "c.h"
