#define P(a, ...) a ## __VA_OPT__(1)
#define Q(a, ...) __VA_OPT__(a) ## 2
#define W(a, ...) x ## __VA_OPT__(a b) ## y
#define xy 7
#if P(1, x) == 11
#include "p11.h"
#endif
#if P(2) == 2
#include "p2.h"
#endif
#if Q(3, x) == 32
#include "q32.h"
#endif
#if Q(3) == 2
#include "q2.h"
#endif
#if W(1) == 7
#include "wxy.h"
#endif
#if P(1, x) == 1
#include "wrong.h"
#endif
