#pragma once
/* d.h */
#include "e.h"
