#include"nospace.h"
#include<nospace_angle.h>
#	include "tab.h"
  #  include "indented.h"
	#	include	"tabs2.h"
#
#pragma hdrslim_test unknown pragma
#ident "odd-syntax"
#include "empty.h"
#include "noeol.h"
#line 100 "elsewhere/fake.c"
#include "after_line.h"
#if __LINE__ == 101
#include "line101.h"
#endif
