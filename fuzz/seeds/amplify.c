#if REP16(1 +) 1 == 17
#endif
#if REP4(- -) 1 && REP16((1)) 
#endif
#if VREP4(1 ? 2 : 3,) 4
#endif
#if PASTE4(1) == 11
#endif
#include REP4(HDR)
#if REP4(1 ? 0 :) 1
#endif
