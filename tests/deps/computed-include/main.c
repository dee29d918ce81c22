#define HDR "x.h"
#include HDR

#define H2 <y.h>
#include H2
#define H3 <sub/w.h>
#include H3

#define CHAIN_A CHAIN_B
#define CHAIN_B "chain.h"
#include CHAIN_A

#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)
#define PATH_MACRO gen/z.h
#include __stringify(PATH_MACRO)

#ifndef PLAT
#define PLAT foo
#endif
#define CAT_1(a, b) a##b
#define CAT(a, b) CAT_1(a, b)
#include __stringify(CAT(plat_, PLAT).h)

#include CFG_HDR
#include CFG_ANGLE
