#!/bin/bash
# t15-kept-result.sh: `cost` keeps its whole table and reuses it only while
# none of its inputs changed (src/memo.h).  Ground truth for every table is
# a `--no-cache` run (which computes everything; t4 checks those figures by
# hand).  Each case says whether the kept table must be reused or not: a
# reuse that should not happen gives a stale table, and a recompute that
# should not happen is a memo that never works.

. "$(dirname "$0")/lib.sh"

# header NAME LINES [INCLUDE...]: a guarded header of exactly LINES lines
header () {
	guarded_header "$@"
}

#   main.c -> a.h -> c.h, <x.h> (found in inc2/, searched after inc1/)
#          -> b.h -> c.h
#   other.c -> d.h
mktree () {
	rm -rf tree "$XDG_CACHE_HOME" && mkdir -p tree/inc2 && cd tree
	printf '#include "a.h"\n#include "b.h"\nint main(void) { return 0; }\n' >main.c
	printf '#include "d.h"\n' >other.c
	header a.h 10 '#include "c.h"' '#include <x.h>'
	header b.h 20 '#include "c.h"'
	header c.h 40
	header d.h 80
	header inc2/x.h 5
	cd ..
}

# cost ARGS...: the table (out) and whether it was reused (state: reused
# or computed), with the ground truth beside it (truth)
cost () {
	hdrslim cost --stats "$@" >out 2>err
	grep -q "cost: kept result reused" err && state=reused || state=computed
	grep -q "cost: \(kept result reused\|computed\)" err
	hdrslim cost --no-cache "$@" >truth
	test_cmp truth out
}

FLAGS="-nostdinc -I tree/inc1 -I tree/inc2"

test_expect_success 'a second run reuses the table; a --no-memo run does not' '
	mktree
	cost --json $FLAGS tree && test $state = computed
	cost --json $FLAGS tree && test $state = reused
	cost --json --no-memo $FLAGS tree && test $state = computed
'

test_expect_success 'a header whose content changed: computed again' '
	mktree
	cost --json $FLAGS tree && test $state = computed
	cost --json $FLAGS tree && test $state = reused
	header tree/d.h 90
	cost --json $FLAGS tree && test $state = computed
	grep -q "\"path\": \"d.h\", \"lines\": 90" out
'

test_expect_success 'a header touched but not changed: reused' '
	mktree
	cost --json $FLAGS tree && test $state = computed
	sleep 0.01 && touch tree/c.h tree/main.c
	cost --json $FLAGS tree && test $state = reused
'

test_expect_success 'a new header that an #include now finds first: computed again' '
	mktree
	cost --json $FLAGS tree && test $state = computed
	grep -q "\"path\": \"inc2/x.h\"" out
	cost --json $FLAGS tree && test $state = reused
	mkdir tree/inc1 && header tree/inc1/x.h 7
	cost --json $FLAGS tree && test $state = computed
	grep -q "\"path\": \"inc1/x.h\", \"lines\": 7" out
	! grep -q "inc2/x.h" out
'

test_expect_success 'a header appearing outside the tree: computed again' '
	mktree
	mkdir -p outside
	cost --json -nostdinc -I "$PWD/outside" -I tree/inc2 tree && test $state = computed
	cost --json -nostdinc -I "$PWD/outside" -I tree/inc2 tree && test $state = reused
	header outside/x.h 3
	cost --json -nostdinc -I "$PWD/outside" -I tree/inc2 tree && test $state = computed
	grep -q "\"path\": \"$PWD/outside/x.h\", \"lines\": 3" out
	echo "/* more */" >>outside/x.h
	cost --json -nostdinc -I "$PWD/outside" -I tree/inc2 tree && test $state = computed
	grep -q "\"path\": \"$PWD/outside/x.h\", \"lines\": 4" out
'

test_expect_success 'a symlinked directory that appears (the walk does not enter it): computed again' '
	mktree
	mkdir tree/real && header tree/real/x.h 9
	printf "#if __has_include(\"lnk/x.h\")\n#include \"lnk/x.h\"\n#endif\n" >>tree/other.c
	cost --json $FLAGS tree && test $state = computed
	! grep -q "lnk/x.h" out
	cost --json $FLAGS tree && test $state = reused
	ln -s real tree/lnk
	cost --json $FLAGS tree && test $state = computed
	grep -q "\"path\": \"lnk/x.h\", \"lines\": 9" out
	cost --json $FLAGS tree && test $state = reused
'

test_expect_success 'another configuration, another removed file: computed again' '
	mktree
	cost --json $FLAGS tree && test $state = computed
	cost --json $FLAGS -DFEATURE tree && test $state = computed
	cost --json $FLAGS -DFEATURE tree && test $state = reused
	cost --json $FLAGS tree && test $state = computed
	rm tree/other.c
	cost --json $FLAGS tree && test $state = computed
	! grep -q "d.h" out
'

test_expect_success 'the table is reused under another --sort and --top, unless it lacks "expanded"' '
	mktree
	cost --top 1 $FLAGS tree && test $state = computed
	tail -n 1 out | grep -q " d.h$"
	cost --top 1 --sort lines $FLAGS tree && test $state = reused
	tail -n 1 out | grep -q " d.h$"
	cost --top 1 --sort tus $FLAGS tree && test $state = computed
	tail -n 1 out | grep -q " a.h$"
	cost --top 1 --sort tus $FLAGS tree && test $state = reused
	cost --json $FLAGS tree && test $state = computed
	cost --sort expanded $FLAGS tree && test $state = reused
	cost --top 2 --sort direct_includers $FLAGS tree && test $state = reused
'

test_expect_success 'another hdrslim binary: computed again' '
	mktree
	cost --json $FLAGS tree && test $state = computed
	cp "$HDRSLIM" other-hdrslim && echo >>other-hdrslim
	./other-hdrslim cost --stats --json $FLAGS tree >out 2>err
	grep -q "cost: computed" err
	test_cmp truth out
'

test_expect_success 'a damaged or truncated kept table is not trusted' '
	mktree
	cost --json $FLAGS tree && test $state = computed
	kept=$(ls .cache/hdrslim/*.cost) && test -f "$kept"
	size=$(wc -c <"$kept")
	printf "\\377" | dd of="$kept" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
	cost --json $FLAGS tree && test $state = computed
	cost --json $FLAGS tree && test $state = reused
	head -c $((size - 9)) "$kept" >cut && cat cut >"$kept"
	cost --json $FLAGS tree && test $state = computed
'

test_expect_success 'a run with diagnostics keeps nothing: the next run says them again' '
	mktree
	printf "/* never closed\n" >tree/bad.h
	printf "#include \"bad.h\"\n" >>tree/other.c
	test_expect_code 1 hdrslim cost --stats $FLAGS tree >one 2>err1
	grep -q "bad.h.*unterminated comment" err1
	test_expect_code 1 hdrslim cost --stats $FLAGS tree >two 2>err2
	grep -q "cost: computed" err2
	grep -q "bad.h.*unterminated comment" err2
	test_cmp one two
	test ! -e .cache/hdrslim/*.cost
'

test_expect_success '--clear-cache removes the kept table, --no-cache neither reads nor writes it' '
	mktree
	cost --json $FLAGS tree && test $state = computed
	hdrslim cost --stats --no-cache --json $FLAGS tree >out 2>err
	grep -q "cost: computed" err
	hdrslim cost --clear-cache --stats --json $FLAGS tree >out 2>err
	grep -q "cost: computed" err
'

test_done
