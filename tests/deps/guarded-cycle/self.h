#ifndef SELF_H
#define SELF_H
#include "self.h"
#endif
