#ifdef __GNUC__
#include "gnuc.h"
#endif
#if __GNUC__ >= 4
#include "gnuc4.h"
#endif
#if defined(__STDC__) && __STDC_VERSION__ >= 201112L
#include "c11.h"
#endif
#if __STDC_HOSTED__
#include "hosted.h"
#endif
#if defined(__linux__) || defined(__linux)
#include "linux.h"
#endif
#if __SIZEOF_POINTER__ == 8 || __SIZEOF_POINTER__ == 4
#include "ptrsize.h"
#endif
#ifdef __cplusplus
#include "cplusplus.h"
#endif
#ifdef __OPTIMIZE__
#include "optimize.h"
#endif
#if __LINE__ == 25
#include "line25.h"
#endif
#if defined(__FILE__) && __INCLUDE_LEVEL__ == 0
#include "level.h"
#endif
#ifdef __STDC_IEC_559__
#include "iec559.h"
#endif
