#if !defined X
#include "nx1.h"
#endif
#if !defined(X)
#include "nx2.h"
#endif
#if ! defined ( X )
#include "nx3.h"
#endif
#ifndef X
#include "nx4.h"
#endif
#if !defined X || X == 0
#include "x_off.h"
#else
#include "x_on.h"
#endif
#if !!defined(X)
#include "x_def.h"
#endif
