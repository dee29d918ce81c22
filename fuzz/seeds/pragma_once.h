#pragma once
#pragma GCC diagnostic push
#include "a.h"
#import <b.h>
#pragma once  
