#!/bin/bash
# t5-compdb.sh: configuration from compile_commands.json.  Each entry's own
# flags decide its TU (both the "arguments" and the "command" form,
# relative paths against the entry's "directory"), and the headers hdrslim
# lists equal what gcc -M lists with the same flags.

. "$(dirname "$0")/lib.sh"

mktree () {
	mkdir -p proj/src proj/inc proj/inc2 proj/build
	cat >proj/src/a.c <<-'EOC'
	#include "cfg.h"
	#ifdef WITH_B
	#include <b.h>
	#endif
	EOC
	cat >proj/src/c.c <<-'EOC'
	#include <cfg.h>
	#ifdef WITH_B
	#include <b.h>
	#endif
	EOC
	echo '#define CFG 1' >proj/inc/cfg.h
	echo '#define CFG 2' >proj/inc2/cfg.h
	echo '/* b */' >proj/inc/b.h
	echo '/* b2 */' >proj/inc2/b.h
	# a.c: arguments form, -I relative to "directory" (build/)
	# c.c: command form with quoting, another include dir and no -D
	cat >proj/compile_commands.json <<-EOC
	[
	  {"directory": "$PWD/proj/build",
	   "arguments": ["gcc", "-I../inc", "-DWITH_B", "-c", "../src/a.c"],
	   "file": "../src/a.c"},
	  {"directory": "$PWD/proj",
	   "command": "gcc -I 'inc2' -c src/c.c -o 'build/c c.o'",
	   "file": "src/c.c"}
	]
	EOC
}

gcc_deps () {
	(cd "$1" && shift && gcc -M "$@") | make_rule_deps | sed "\\#^/usr#d" | sort
}

test_expect_success 'deps: each TU with its own entry flags, equal to gcc -M' '
	mktree
	(cd proj && hdrslim deps src/a.c) | sed "\\#^/usr#d" | sort >got.a
	gcc_deps proj/build -I../inc -DWITH_B ../src/a.c | sed "s#^\\.\\./##" >want.a
	test_cmp want.a got.a
	(cd proj && hdrslim deps src/c.c) | sed "\\#^/usr#d" | sort >got.c
	gcc_deps proj -I inc2 src/c.c >want.c
	test_cmp want.c got.c
'

test_expect_success 'a header no entry names is read with the flags of the entries nearest it' '
	mktree
	mkdir -p proj/lib
	printf "#include <dep.h>\n#include <cfg.h>\n" >proj/lib/lib.h
	echo "/* dep */" >proj/inc/dep.h
	printf "#include <cfg.h>\n" >proj/src/helper.h
	# lib/ has no entry, nor has the root: the first entry (a.c, -I../inc)
	(cd proj && hdrslim deps lib/lib.h) | sed "\#^/usr#d" | sort >got.lib
	gcc_deps proj/build -I../inc -DWITH_B ../lib/lib.h | sed "s#^\.\./##" >want.lib
	test_cmp want.lib got.lib
	# src/ has entries: the first one in it (a.c again)
	(cd proj && hdrslim deps src/helper.h) | sed "\#^/usr#d" | sort >got.helper
	gcc_deps proj/build -I../inc -DWITH_B ../src/helper.h | sed "s#^\.\./##" >want.helper
	test_cmp want.helper got.helper
	# check reads every header so, and so finds what they include
	hdrslim check proj >out 2>err || test $? = 1
	! grep "No such file" err
'

test_expect_success 'cost: the compile_commands.json entries are the TUs (exact mode)' '
	mktree
	echo "int stray;" >proj/src/not_in_db.c
	hdrslim cost --json --no-cache proj >out.json
	grep -q "\"mode\": \"exact\", \"tus\": 2," out.json
	grep -q "\"path\": \"inc/b.h\", \"lines\": 1, \"direct_includers\": 1, \"tus\": 1" out.json
	grep -q "\"path\": \"inc2/cfg.h\"" out.json
	! grep -q "inc2/b.h" out.json
'

test_expect_success '--compdb FILE elsewhere than the tree' '
	mktree
	mv proj/compile_commands.json db.json
	(cd proj && hdrslim deps --compdb ../db.json src/a.c) | sed "\\#^/usr#d" | sort >got.a
	printf "inc/b.h\ninc/cfg.h\n" >want.a
	test_cmp want.a got.a
'

# A header outside the tree (the kernel's include/generated/ in the build
# directory) is found only by the exact walk, after the tree's facts were
# taken: check has neither its facts nor its symbols, so it says nothing of
# the line that includes it (it once judged it from memory past its tables:
# "unused" for a header whose macros the file uses).
test_expect_success 'check, exact mode: a header found only by the walk is not judged' '
	rm -rf gproj gbuild && mkdir -p gproj/src gbuild/include/generated &&
	printf "#define GEN_SHIFT 3\n" >gbuild/include/generated/gen.h &&
	printf "#include <generated/gen.h>\nint shifted(int x) { return x << GEN_SHIFT; }\n" >gproj/src/a.c &&
	dir=$(cd gproj && pwd) &&
	printf "[{\"directory\": \"%s\", \"file\": \"src/a.c\", \"arguments\": [\"cc\", \"-I../gbuild/include\", \"-c\", \"src/a.c\"]}]\n" \
		"$dir" >gproj/compile_commands.json &&
	gcc -fsyntax-only -Igbuild/include gproj/src/a.c &&
	(cd gproj && hdrslim check --json . src/a.c >../g.json 2>../g.err; test $? -le 1) &&
	! grep "gen.h" g.json
'

test_done
