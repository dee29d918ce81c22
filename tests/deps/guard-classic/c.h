/* guard spelled with #if !defined(...) */
#if !defined(C_H)
#define C_H
#ifdef SECOND
#include "c_second.h"
#endif
#endif
