#define N 4
#define TWICE_N (N * 2)
#if 1 + 2 * 3 == 7
#include "t01.h"
#else
#include "f01.h"
#endif
#if (1 + 2) * 3 == 9
#include "t02.h"
#else
#include "f02.h"
#endif
#if 10 / 3 == 3 && 10 % 3 == 1
#include "t03.h"
#else
#include "f03.h"
#endif
#if -7 / 2 == -3 && -7 % 2 == -1
#include "t04.h"
#else
#include "f04.h"
#endif
#if (1 << 10) == 1024 && (1024 >> 3) == 128
#include "t05.h"
#else
#include "f05.h"
#endif
#if 0x1F == 31 && 017 == 15 && 0XfF == 255
#include "t06.h"
#else
#include "f06.h"
#endif
#if (0 ? 10 : 20) == 20 && (1 ? 2 : 3) == 2
#include "t07.h"
#else
#include "f07.h"
#endif
#if (1 ? 0 ? 5 : 6 : 7) == 6
#include "t08.h"
#else
#include "f08.h"
#endif
#if -1 < 0 && -1 > 0u
#include "t09.h"
#else
#include "f09.h"
#endif
#if ~0 == -1 && (5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6
#include "t10.h"
#else
#include "f10.h"
#endif
#if !0 && !!5 == 1 && (2 || 0) == 1 && (2 && 3) == 1
#include "t11.h"
#else
#include "f11.h"
#endif
#if 2 >= 2 && 2 <= 2 && 3 != 4 && 3 > 2 && 2 < 3
#include "t12.h"
#else
#include "f12.h"
#endif
#if 0x7fffffffffffffff > 0 && 18446744073709551615u == -1
#include "t13.h"
#else
#include "f13.h"
#endif
#if NOT_A_MACRO == 0 && !NOT_A_MACRO
#include "t14.h"
#else
#include "f14.h"
#endif
#if 'A' == 65 && '\n' == 10
#include "t15.h"
#else
#include "f15.h"
#endif
#if 0 && (1 / 0)
#include "t16.h"
#else
#include "f16.h"
#endif
#if 1 || (1 / 0)
#include "t17.h"
#else
#include "f17.h"
#endif
#if TWICE_N == 8 && TWICE_N / N == 2
#include "t18.h"
#else
#include "f18.h"
#endif
#if 10L == 10 && 10UL == 10u && 10LL == 10ll
#include "t19.h"
#else
#include "f19.h"
#endif
#if (1 | 2 ^ 3 & 4 == 4) == 3
#include "t20.h"
#else
#include "f20.h"
#endif
#if (-8 >> 1) == -4
#include "t21.h"
#else
#include "f21.h"
#endif
#if defined(N) + defined(TWICE_N) + defined NOT_A_MACRO == 2
#include "t22.h"
#else
#include "f22.h"
#endif
#if 2 > 3
#include "t23.h"
#else
#include "f23.h"
#endif
#if LEVEL >= 3
#include "t24.h"
#else
#include "f24.h"
#endif
#if LEVEL * 2 - 1 == 5 ? 1 : 0
#include "t25.h"
#else
#include "f25.h"
#endif
#if NOT_A_MACRO
#include "t26.h"
#else
#include "f26.h"
#endif
