#!/bin/bash
# t4-cost-why.sh: `hdrslim cost` metrics, `hdrslim why` chains and the
# per-file cache, on a tree small enough to compute every figure by hand
# from the definitions in DESIGN.md:
#
#   main.c -> a.h -> c.h          other.c -> d.h
#          -> b.h -> c.h
#                 -> d.h   (under #ifdef FEATURE)
#
# lines: a.h 10, b.h 20, c.h 40, d.h 80.  In main.c's graph c.h is
# reachable through a.h and b.h (nobody dominates it but the TU), d.h only
# through b.h.  So added = a 10, b 20+80, c 40, d 80 (main) + 80 (other);
# tus = a 1, b 1, c 1, d 2; direct includers = a 1, b 1, c 2, d 2;
# expanded = a 10+40, b 20+40+80, c 40, d 80.

. "$(dirname "$0")/lib.sh"

# header NAME LINES [INCLUDE...]: a guarded header of exactly LINES lines
header () {
	guarded_header "$@"
}

mktree () {
	mkdir -p tree && cd tree
	printf '#include "a.h"\n#include "b.h"\nint main(void) { return 0; }\n' >main.c
	printf '#include "d.h"\n' >other.c
	header a.h 10 '#include "c.h"'
	header b.h 20 '#include "c.h"' '#ifdef FEATURE' '#include "d.h"' '#endif'
	header c.h 40
	header d.h 80
	cd ..
}

# field JSON PATH FIELD: one number from `cost --json` output
field () {
	grep "\"path\": \"$2\"" "$1" | sed -e "s/.*\"$3\": \\([0-9.]*\\).*/\\1/"
}

check_metrics () {
	for spec in "a.h lines 10" "b.h lines 20" "c.h lines 40" "d.h lines 80" \
		    "a.h added 10" "b.h added 100" "c.h added 40" "d.h added 160" \
		    "a.h tus 1" "b.h tus 1" "c.h tus 1" "d.h tus 2" \
		    "a.h direct_includers 1" "b.h direct_includers 1" \
		    "c.h direct_includers 2" "d.h direct_includers 2" \
		    "a.h expanded 50" "b.h expanded 140" "c.h expanded 40" "d.h expanded 80" \
		    "d.h build_lines 160" "c.h build_lines 40" \
		    "d.h prevalence 1.000000" "a.h prevalence 0.500000"; do
		set -- $spec
		got=$(field "$JSON" "$1" "$2")
		test "$got" = "$3" || { echo "$1 $2: got '$got', want $3"; return 1; }
	done
}

test_expect_success 'cost --json (union mode): every metric as computed by hand' '
	mktree
	hdrslim cost --json --no-cache -nostdinc tree >out.json
	JSON=out.json check_metrics
	grep -q "\"tus\": 2, \"files\": 6" out.json
'

test_expect_success 'cost --json (exact mode, FEATURE defined): same figures' '
	mktree
	hdrslim cost --json --no-cache -nostdinc -DFEATURE tree >out.json
	grep -q "\"mode\": \"exact\"" out.json
	JSON=out.json check_metrics
'

test_expect_success 'cost, exact mode without FEATURE: d.h leaves main.c' '
	mktree
	hdrslim cost --json --no-cache -nostdinc -DOTHER tree >out.json
	test "$(field out.json d.h tus)" = 1
	test "$(field out.json b.h added)" = 20
	test "$(field out.json b.h expanded)" = 60
'

test_expect_success 'cost: a guarded include cycle does not change dominators' '
	mktree
	header tree/c.h 40 "#include \"a.h\""
	hdrslim cost --json --no-cache -nostdinc tree >out.json
	test "$(field out.json a.h added)" = 10
	test "$(field out.json b.h added)" = 100
	test "$(field out.json c.h added)" = 40
	test "$(field out.json d.h added)" = 160
	test "$(field out.json a.h expanded)" = 50
'

# A cycle entered from two sides (main.c -> a.h -> b.h <-> c.h <- main.c):
# b.h is reached through a.h and through c.h, so nothing but the TU
# dominates it, although the walk meets b.h first under a.h.  For each
# header H, gcc -M with every #include of H deleted says which lines leave.
test_expect_success 'cost: added through a cycle entered from two sides, as gcc counts it' '
	rm -rf cyc && mkdir cyc &&
	printf "#include \"a.h\"\n#include \"c.h\"\nint main(void) { return 0; }\n" >cyc/main.c &&
	header cyc/a.h 10 "#include \"b.h\"" &&
	header cyc/b.h 20 "#include \"c.h\"" &&
	header cyc/c.h 40 "#include \"b.h\"" &&
	for mode in "" -DEXACT; do
		hdrslim cost --json --no-cache -nostdinc $mode cyc >out.json &&
		for h in a.h b.h c.h; do
			rm -rf cyc.cut && cp -R cyc cyc.cut &&
			sed -i "/#include \"$h\"/d" cyc.cut/*.c cyc.cut/*.h &&
			gcc -M -nostdinc -MG cyc/main.c | tr " \\\\" "\n\n" | grep "\.h$" | sort >all &&
			(cd cyc.cut && gcc -M -nostdinc -MG main.c) | tr " \\\\" "\n\n" | grep "\.h$" | sed "s|^|cyc/|" | sort >kept &&
			want=$(comm -23 all kept | xargs cat | wc -l) &&
			got=$(field out.json $h added) &&
			echo "$mode $h: added $got, gcc $want" &&
			test "$got" = "$want" || return 1
		done
	done &&
	rm -rf cyc cyc.cut all kept out.json
'

test_expect_success 'cost: table sorted by --sort, limited by --top' '
	mktree
	hdrslim cost --no-cache -nostdinc --sort lines --top 2 tree >out
	tail -n 2 out | awk "{print \$NF}" >got
	printf "d.h\nc.h\n" >want
	test_cmp want got
	hdrslim cost --no-cache -nostdinc --sort added --top 1 tree | tail -n 1 | grep -q "d.h$"
'

test_expect_success 'cost: unknown --sort metric is a usage error' '
	mktree
	test_expect_code 2 hdrslim cost --sort bogus tree
'

test_expect_success 'why: the chain, its lines and its condition' '
	mktree
	(cd tree && hdrslim why -nostdinc main.c d.h) >out
	grep -q "main.c:2: #include \"b.h\"" out
	grep -q "b.h:5: #include \"d.h\"    \\[if defined(FEATURE)\\]" out
	test "$(grep -c "^#" out)" = 1
'

test_expect_success 'why: an #elif or #else branch negates the branches before it' '
	mkdir -p elif && (cd elif &&
	printf "#ifdef A\n#include \"x.h\"\n#elif defined(B)\n#include \"y.h\"\n#else\n#include \"z.h\"\n#endif\n" >m.c &&
	: >x.h && : >y.h && : >z.h &&
	hdrslim why -nostdinc m.c y.h >out &&
	grep -q "m.c:4: #include \"y.h\"    \[if !defined(A) && defined(B)\]" out &&
	hdrslim why -nostdinc m.c z.h >out &&
	grep -q "m.c:6: #include \"z.h\"    \[if !defined(A) && !(defined(B))\]" out)
'

test_expect_success 'why: shortest first, --max' '
	mktree
	(cd tree && hdrslim why -nostdinc main.c c.h) >out
	test "$(grep -c "^#" out)" = 2
	(cd tree && hdrslim why -nostdinc --max 1 main.c c.h) >out
	test "$(grep -c "^#" out)" = 1
'

test_expect_success 'why: a header the TU does not include -> 1' '
	mktree
	(cd tree && test_expect_code 1 hdrslim why -nostdinc other.c c.h)
'

test_expect_success 'cache: the second run reads no file, a change is seen' '
	mktree
	export XDG_CACHE_HOME="$PWD/cache"
	hdrslim cost --stats --json -nostdinc tree >one.json 2>err1
	grep -q " 6 lexed, 0 from cache" err1
	hdrslim cost --stats --json -nostdinc tree >two.json 2>err2
	grep -q " 0 lexed, 6 from cache" err2
	test_cmp one.json two.json
	header tree/d.h 90
	hdrslim cost --stats --json -nostdinc tree >three.json 2>err3
	grep -q " 1 lexed, 5 from cache" err3
	test "$(field three.json d.h lines)" = 90
	hdrslim cost --stats --json --no-cache -nostdinc tree >four.json 2>err4
	grep -q " 6 lexed, 0 from cache" err4
	test_cmp three.json four.json
'

test_expect_success 'cache: a file only the graph reads (an included .inc) is cached too' '
	mktree
	export XDG_CACHE_HOME="$PWD/cache-inc"
	printf "#include \"table.inc\"\n" >>tree/a.h
	printf "int table;\n" >tree/table.inc
	hdrslim cost --stats --json -nostdinc tree >one.json 2>err1
	grep -q " 7 lexed, 0 from cache" err1
	test -s cache-inc/hdrslim/*.facts.log
	hdrslim cost --stats --no-memo --json -nostdinc tree >two.json 2>err2
	grep -q " 0 lexed, 7 from cache" err2
	test_cmp one.json two.json
	grep -q "\"path\": \"table.inc\"" two.json
'

test_expect_success 'cache: same size, mtime put back (touch -r): the change is still seen' '
	mktree
	export XDG_CACHE_HOME="$PWD/cache"
	(cd tree && hdrslim deps -DFEATURX -nostdinc main.c) >one
	! grep -q "^d.h$" one
	cp -p tree/b.h b.h.orig
	sed -e "s/^#ifdef FEATURE/#ifdef FEATURX/" tree/b.h >b.new
	test "$(wc -c <b.new)" = "$(wc -c <tree/b.h)"
	cat b.new >tree/b.h
	touch -r b.h.orig tree/b.h
	(cd tree && hdrslim deps -DFEATURX -nostdinc main.c) >two
	grep -q "^d.h$" two
'

test_expect_success 'cache: a change to a few of many files goes to a journal; loads read it, a damaged one is cut off' '
	rm -rf big && mkdir -p big &&
	i=0 && while test $i -lt 40; do
		printf "#include \"h%d.h\"\nint f%d(void);\n" $i $i >big/c$i.c &&
		printf "#define H%d %d\n" $i $i >big/h$i.h &&
		i=$((i + 1))
	done &&
	export XDG_CACHE_HOME="$PWD/jcache" &&
	hdrslim cost --json -nostdinc big >j1.json &&
	main=$(ls jcache/hdrslim/*.facts) &&
	test ! -e "$main.log" &&
	cp -p "$main" main.before &&
	printf "#define H7 7\n#define H7B 8\n" >big/h7.h &&
	hdrslim cost --stats --json -nostdinc big >j2.json 2>jerr2 &&
	grep -q " 1 lexed, 79 from cache" jerr2 &&
	test -s "$main.log" &&
	cmp "$main" main.before &&
	hdrslim cost --stats --json -nostdinc big >j3.json 2>jerr3 &&
	grep -q " 0 lexed, 80 from cache" jerr3 &&
	test_cmp j2.json j3.json &&
	hdrslim cost --json --no-cache -nostdinc big >j4.json &&
	test_cmp j2.json j4.json &&
	test "$(field j3.json h7.h lines)" = 2 &&
	printf "#define H8 8\n\n\n" >big/h8.h &&
	hdrslim cost --stats --json -nostdinc big >j5.json 2>jerr5 &&
	grep -q " 1 lexed, 79 from cache" jerr5 &&
	size=$(wc -c <"$main.log") &&
	head -c $((size - 5)) "$main.log" >cut && cat cut >"$main.log" &&
	hdrslim cost --stats --json -nostdinc big >j6.json 2>jerr6 &&
	grep -q " 1 lexed, 79 from cache" jerr6 &&
	test_cmp j5.json j6.json &&
	hdrslim cost --clear-cache --stats --json -nostdinc big >/dev/null 2>jerr7 &&
	grep -q " 80 lexed, 0 from cache" jerr7 &&
	test ! -e "$main.log"
'

test_expect_success 'cache: a damaged entry no run read stays damaged when the file is rewritten' '
	rm -rf lt && mkdir -p lt &&
	: >lt/a.c &&
	for i in 0 1 2 3 4 5 6 7 8 9; do
		printf "#include \"h$i.h\"\n" >>lt/a.c &&
		printf "#define H$i $i\n" >lt/h$i.h || return 1
	done &&
	printf "#define X 1\n#define Y 2\n" >lt/x.h &&
	XDG_CACHE_HOME="$PWD/lcache" && export XDG_CACHE_HOME &&
	hdrslim cost -nostdinc lt >/dev/null &&
	main=$(ls lcache/hdrslim/*.facts) &&
	# the line count of x.h, 12 bytes into its block (after the key
	# "x.h" and its padding to 8): 2 becomes 3
	at=$(grep -boa "x\.h" "$main" | head -n 1 | cut -d: -f1) &&
	at=$(( (at + 4 + 7) / 8 * 8 + 12 )) &&
	printf "\003" | dd of="$main" bs=1 seek=$at conv=notrunc 2>/dev/null &&
	for i in 0 1 2 3 4 5 6 7 8 9; do
		printf "#define H$i $i\n#define HH$i $i\n" >lt/h$i.h || return 1
	done &&
	cp "$main" before &&
	(cd lt && hdrslim deps -nostdinc a.c >/dev/null) &&
	! cmp -s "$main" before &&
	test ! -e "$main.log" &&
	hdrslim cost --stats --json -nostdinc lt >l.json 2>l.err &&
	test_grep " 1 lexed, 11 from cache" l.err
'

test_done
