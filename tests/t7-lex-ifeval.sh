#!/bin/bash
# t7-lex-ifeval.sh: unit tests of the lexer and the #if evaluator through
# `hdrslim lex` and `hdrslim if-eval`.  The ground truth for every #if
# expression is gcc itself: `#if EXPR / yes / #else / no` through gcc -E.
# The lexer's line numbers and directives are checked against a file whose
# every directive is written on a known line.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 && test_set_prereq GCC

# gcc_if EXPR [FLAGS]: 1 or 0, as gcc decides the #if
gcc_if () {
	expr=$1
	shift
	printf '#if %s\nyes\n#else\nno\n#endif\n' "$expr" |
		gcc -E -P -w "$@" - 2>/dev/null | grep -q yes && echo 1 || echo 0
}

EXPRS='0
1
2 + 3 * 4 == 14
(2 + 3) * 4 == 20
10 / 3 == 3 && 10 % 3 == 1
-7 / 2 == -3 && -7 % 2 == -1
1 << 10 == 1024
-1 >> 1 == -1
-1 < 0u
-1 < 0
0xffffffffffffffff == -1
0x7fffffffffffffff > 0
~0u == 0xffffffffffffffff
1 ? 2 : 3
0 ? 1/0 : 7
1 || 1/0
0 && 1/0
(1, 0)
!0 && !!5
3 > 2 > 1
1 == 1 != 0
5 & 3 | 8 ^ 2
0x10 == 16 && 010 == 8 && 0b101 == 5
10u / 3 == 3ull
'"'"'a'"'"' == 97
'"'"'\\n'"'"' == 10
'"'"'\\377'"'"' < 0
'"'"'\\x41'"'"' == 65
__GNUC__ >= 4
defined(__GNUC__) && defined __STDC__
__STDC_VERSION__ >= 201112L
__SIZEOF_LONG__ == 8
UNDEFINED_NAME == 0
UNDEFINED_FN(1) + 0 == 0 || 1
__LINE__ == 1
defined(__has_include)'

test_expect_success GCC 'if-eval --exact decides like gcc, expression by expression' '
	: >mismatches
	printf "%s\n" "$EXPRS" | while IFS= read -r e; do
		want=$(gcc_if "$e")
		got=$(hdrslim if-eval --exact -- "$e" 2>&1) || :
		case $got in error:*) got=0 ;; esac
		test "$got" = "$want" || echo "$e: gcc $want, hdrslim $got" >>mismatches
	done
	test_must_be_empty mismatches
'

test_expect_success GCC 'if-eval: -D, -U and function-like -D like gcc' '
	: >mismatches
	for e in "A == 2" "defined(B)" "F(3) == 9" "A + F(A) == 6" "defined C"; do
		want=$(gcc_if "$e" -DA=2 -DB -UB "-DF(x)=((x)*(x))" -DC)
		got=$(hdrslim if-eval --exact -DA=2 -DB -UB "-DF(x)=((x)*(x))" -DC -- "$e") || :
		test "$got" = "$want" || echo "$e: gcc $want, hdrslim $got" >>mismatches
	done
	test_must_be_empty mismatches
'

test_expect_success 'if-eval, union mode: unknown unless decided' '
	hdrslim if-eval -- "X" "X && 0" "X || 1" "defined(X) ? 1 : 1" "0" "1 + 1 == 2" >got
	printf "unknown\n0\n1\n1\n0\n1\n" >want
	test_cmp want got
	hdrslim if-eval --union -DX=3 -UY -- "X == 3" "defined(Y)" "Z" >got
	printf "1\n0\nunknown\n" >want
	test_cmp want got
'

test_expect_success 'if-eval: malformed expressions are errors, exit 1' '
	test_expect_code 1 hdrslim if-eval --exact -- "1 +" >out
	grep -q "^error:" out
	test_expect_code 1 hdrslim if-eval --exact -- "(1" >out
	test_expect_code 1 hdrslim if-eval --exact -- "defined" >out
	test_expect_code 1 hdrslim if-eval --exact -- "1/0" >out
	grep -q "division by zero" out
'

test_expect_success 'lex: directives, lines, continuations, comments, guard' '
	cat >g.h <<-\EOF
	/* a header */
	#ifndef G_H
	#define G_H
	  #  include <a.h> // trailing
	#define F(x, y) \
	    ((x) + (y))
	/* #include "not.h" */
	const char *s = "#include <no.h>";
	#if defined(A) /* multi
	   line */ && B
	#include "b.h"
	#elif C
	#else
	#endif
	#endif
	EOF
	hdrslim lex g.h >out
	cat >want <<-\EOF
	g.h: 15 lines, 10 directives, guard G_H
	2 ifndef G_H -> 9
	3 define G_H
	4 include a.h
	5 define F(x, y) ((x) + (y))
	9 if defined(A) && B -> 6
	11 include b.h
	12 elif C -> 7
	13 else -> 8
	14 endif -> 4
	15 endif -> 0
	EOF
	test_cmp want out
'

# Object-like #define lines with runs of blanks (space, tab, \f, \v, a
# trailing \r) of every length, placed across 16-byte boundaries: the
# body hdrslim keeps is gcc's (gcc -dD prints each run as one space).
test_expect_success GCC 'lex: define bodies with blank runs, as gcc -dD has them' '
	awk "BEGIN {
		srand(7); split(\" |\t|\f|\v\", bl, \"|\");
		for (i = 0; i < 300; i++) {
			line = \"#define M\" i; n = int(rand() * 5) + 1;
			for (k = 0; k < n; k++) {
				run = \"\"; m = int(rand() * 40) + 1;
				for (j = 0; j < m; j++) run = run bl[int(rand() * 4) + 1];
				tok = \"\"; t = int(rand() * 30) + 1;
				for (j = 0; j < t; j++) tok = tok substr(\"abcXYZ_019+*()\", int(rand() * 14) + 1, 1);
				line = line run tok;
			}
			if (rand() < 0.3) line = line \"   \";
			if (rand() < 0.2) line = line \"\r\";
			print line;
		}
	}" >blanks.h &&
	gcc -E -dD -P blanks.h | grep "^#define M[0-9]" | sed "s/^#define //" >want &&
	hdrslim lex blanks.h | sed -n "s/^[0-9]* define //p" >got &&
	test_line_count = 300 got &&
	test_cmp want got
'

test_expect_success GCC 'text_ident_end stops where the byte loop stops' '
	gcc -std=c11 -O2 -Wall -Wextra -Werror -I"$TEST_DIRECTORY/../src" \
		"$TEST_DIRECTORY/unit/text_ident.c" -o text_ident &&
	./text_ident
'

test_done
