/* #include "no1.h" */
// #include "no2.h"
/*
#include "no3.h"
*/
const char *s = "#include \"no4.h\"";
const char *t = "/* not a comment start";
#include "yes1.h"
// a line comment continued by a backslash \
#include "no5.h"
/* c */ #include "yes2.h"
# /* c */ include /* c */ "yes3.h" /* trailing */
#define STR "// not a comment"
#include "yes4.h" // trailing line comment
char c = '"';
#include <yes5.h> /* trailing block comment */
char d = '\''; /* apostrophe */ char e = '#';
#include "yes6.h"
/* a comment with an "unbalanced quote and a don't */
#include "yes7.h"
const char *u = "a string with \
a continuation #include \"no6.h\"";
#include "yes8.h"
#if 0 // comment after a directive
#include "no7.h"
#endif /* trailing
   multi-line comment after #endif
#include "no8.h"
*/
#include "yes9.h"
#/*
*/include "yes10.h"
/**/#/**/include/**/"yes11.h"/**/
