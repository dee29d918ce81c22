#!/bin/bash
# t20-own-src.sh: hdrslim's own src/ has no include that `hdrslim check`
# finds unused, replaceable or forward-declarable (the README's policy for
# this tree: redundant includes stay, each file names what it uses), and
# the check is not vacuous: a planted unused include is found.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"

KINDS=--kinds=unused,replaceable,forward

test_expect_success 'src/ passes check' '
	cp -r "$ROOT/src" src &&
	hdrslim check --no-cache $KINDS src >out &&
	test_must_be_empty out
'

test_expect_success 'an unused include planted in src/ is found, and gcc agrees it can go' '
	printf "%s\n" "#ifndef PROBE_H" "#define PROBE_H" "#define PROBE 1" "#endif" >src/probe.h &&
	sed -i "0,/^#include \"commands.h\"/s//#include \"commands.h\"\n#include \"probe.h\"/" src/cmd_why.c &&
	grep -n "^#include \"probe.h\"" src/cmd_why.c >planted &&
	line=$(cut -d: -f1 planted) &&
	test_expect_code 1 hdrslim check --no-cache $KINDS src >out &&
	test_grep "^cmd_why.c:$line: unused: #include \"probe.h\"" out &&
	sed -i "${line}d" src/cmd_why.c &&
	gcc -Wall -Wextra -Werror -std=c11 -D_GNU_SOURCE -fsyntax-only src/cmd_why.c
'

test_done
