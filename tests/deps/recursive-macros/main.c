#define X Y
#define Y X
#if X == 0
#include "x_zero.h"
#endif
#define SELF SELF + 1
#if SELF == 1
#include "self_one.h"
#endif
#define F(a) a + G
#define G F
#if F(1) == 1
#include "fg.h"
#endif
#define HDR_A HDR_B
#define HDR_B HDR_C
#define HDR_C "hdr_c.h"
#include HDR_A
