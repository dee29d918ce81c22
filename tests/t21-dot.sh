#!/bin/bash
# t21-dot.sh: `deps --dot`, `why --dot` and `cost --dot` (Graphviz input),
# against what the compiler and grep say about the same trees:
#
#   - deps: the nodes are the file and what `gcc -M` lists for it; the
#     edges are the #include lines grep finds in those files; a
#     conditional #include's edge carries its condition; an edge's weight
#     is what gcc -M stops listing when every #include of its target goes;
#   - why: the edges are exactly the steps of the chains `why` prints
#     (under the same --max), each with its path:line;
#   - cost: the nodes are the top rows of the table, in its order; the
#     solid edges are the #include lines between them, the dashed ones the
#     pairs an independent search finds connected only through headers
#     not shown; weights are the targets' "added";
#   - names with '"' and '\' are escaped: Graphviz reads them back as they
#     are; every output renders with `dot -Tsvg` (skipped without dot).

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
EX=$ROOT/examples/sched

command -v dot >/dev/null 2>&1 && test_set_prereq DOT

# The node names of a digraph hdrslim wrote, in order (names without '"').
dot_nodes () {
	sed -n 's/^\t"\([^"]*\)" \[label=.*/\1/p' "$1"
}
# Its edges as "FROM TO LABEL", the label's line breaks as '|'.
dot_edges () {
	sed -n 's/^\t"\([^"]*\)" -> "\([^"]*\)" \[label="\([^"]*\)".*/\1 \2 \3/p' "$1" |
		sed 's/\\n/|/g'
}
# The weights of the edges into a node: the "+N line(s)" of each label.
dot_weights_into () {
	dot_edges "$1" | awk -v to="$2" '$2 == to' | sed -n 's/.*+\([0-9]*\) lines\{0,1\}$/\1/p'
}
# The lines of the files named on stdin, together.
lines_of () {
	tr '\n' '\0' | xargs -0 -r cat | wc -l | tr -d ' '
}

# gcc -M's list for FILE (FILE itself first), run in the current directory.
gcc_list () {
	_f=$1
	shift
	gcc -M "$@" "$_f" | sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' |
		sed 's/^[^:]*:[[:space:]]*//' | tr ' ' '\n' | sed '/^$/d'
}

# The #include edges grep finds in examples/sched's files (every include
# there is <linux/x.h>, found in include/): "FROM TO" for each FROM given.
grep_edges () {
	for _n; do
		case $_n in /*) continue ;; esac
		grep '^#include <' "$_n" | sed "s|^#include <\(.*\)>.*|$_n include/\1|"
	done
}

# the tree of t4: main.c -> a.h -> c.h, main.c -> b.h -> c.h and, under
# #ifdef FEATURE, b.h -> d.h; lines a 10, b 20, c 40, d 80
mktree () {
	rm -rf tree && mkdir tree && (cd tree &&
	printf '#include "a.h"\n#include "b.h"\nint main(void) { return 0; }\n' >main.c &&
	guarded_header a.h 10 '#include "c.h"' &&
	guarded_header b.h 20 '#include "c.h"' '#ifdef FEATURE' '#include "d.h"' '#endif' &&
	guarded_header c.h 40 &&
	guarded_header d.h 80)
}

test_expect_success 'deps --dot: the nodes are the file and what gcc -M lists (union and exact mode)' '
	cd "$EX" &&
	for f in $(find . -name "*.c" | sed "s|^\./||" | sort); do
		for flags in "" "-DCONFIG_SMP -DCONFIG_HOTPLUG_CPU"; do
			hdrslim deps --dot $flags "$f" >"$TRASH_DIRECTORY/g.dot" &&
			dot_nodes "$TRASH_DIRECTORY/g.dot" >"$TRASH_DIRECTORY/got" &&
			gcc_list "$f" -Iinclude $flags | normalize_paths >"$TRASH_DIRECTORY/want" &&
			test_cmp "$TRASH_DIRECTORY/want" "$TRASH_DIRECTORY/got" || return 1
		done
	done &&
	grep -q "(exact mode)" "$TRASH_DIRECTORY/g.dot" &&
	test $(wc -l <"$TRASH_DIRECTORY/got") -ge 10
'

test_expect_success 'deps --dot: one edge per #include line grep finds, the forced -include from the TU' '
	cd "$EX" &&
	for f in kernel/fork.c kernel/cpu.c mm/mempolicy.c drivers/tty/sysrq.c; do
		hdrslim deps --dot "$f" >"$TRASH_DIRECTORY/g.dot" &&
		grep_edges $(dot_nodes "$TRASH_DIRECTORY/g.dot") | sort >"$TRASH_DIRECTORY/want" &&
		dot_edges "$TRASH_DIRECTORY/g.dot" | grep -v " -include|" | cut -d" " -f1,2 | sort >"$TRASH_DIRECTORY/got" &&
		test_cmp "$TRASH_DIRECTORY/want" "$TRASH_DIRECTORY/got" &&
		dot_edges "$TRASH_DIRECTORY/g.dot" | grep " -include|" | cut -d" " -f1,2 >"$TRASH_DIRECTORY/forced" &&
		echo "$f /usr/include/stdc-predef.h" >"$TRASH_DIRECTORY/want" &&
		test_cmp "$TRASH_DIRECTORY/want" "$TRASH_DIRECTORY/forced" || return 1
	done
'

test_expect_success 'deps --dot: nodes give their own lines, the graph the TU total (wc -l of gcc -M list)' '
	cd "$EX" &&
	hdrslim deps --dot kernel/fork.c >"$TRASH_DIRECTORY/g.dot" &&
	for n in $(dot_nodes "$TRASH_DIRECTORY/g.dot"); do
		grep -qF "\"$n\" [label=\"$n\\n$(wc -l <"$n" | tr -d " ") lines\"];" "$TRASH_DIRECTORY/g.dot" ||
			{ echo "label of $n"; return 1; }
	done &&
	total=$(gcc_list kernel/fork.c -Iinclude | lines_of) &&
	grep -q "kernel/fork.c: 15 headers, $total lines (union mode)" "$TRASH_DIRECTORY/g.dot"
'

test_expect_success 'deps --dot: the weight into each header is what gcc -M stops listing without its #include lines' '
	(cd "$EX" && hdrslim deps --dot kernel/fork.c) >g.dot &&
	(cd "$EX" && gcc_list kernel/fork.c -Iinclude) | sort >all &&
	checked=0 &&
	for h in $(dot_nodes g.dot | grep "^include/"); do
		rm -rf cut && cp -R "$EX" cut &&
		spelled=${h#include/} &&
		find cut -name "*.[ch]" | xargs sed -i "\|^#include <$spelled>|d" &&
		(cd cut && gcc_list kernel/fork.c -Iinclude) | sort >kept &&
		want=$(comm -23 all kept | (cd "$EX" && lines_of)) &&
		dot_weights_into g.dot "$h" | sort -u >got &&
		echo "$h: weights $(cat got | tr "\n" " ")gcc $want" &&
		echo "$want" >want && test_cmp want got &&
		checked=$((checked + 1)) || return 1
	done &&
	test $checked = 14
'

test_expect_success 'deps --dot: a conditional #include carries its condition; weights as counted by hand' '
	mktree &&
	(cd tree && hdrslim deps --dot -nostdinc main.c) >g.dot &&
	dot_edges g.dot >got &&
	cat >want <<-\EOF &&
	main.c a.h +10 lines
	a.h c.h +40 lines
	main.c b.h +100 lines
	b.h c.h +40 lines
	b.h d.h if defined(FEATURE)|+80 lines
	EOF
	test_cmp want got &&
	(cd tree && hdrslim deps --dot -nostdinc -DFEATURE main.c) >g.dot &&
	dot_edges g.dot >got &&
	test_cmp want got &&
	(cd tree && hdrslim deps --dot -nostdinc -DOTHER main.c) >g.dot &&
	dot_nodes g.dot >got &&
	(cd tree && gcc_list main.c -nostdinc -DOTHER) >want &&
	test_cmp want got &&
	dot_edges g.dot | grep -qx "main.c b.h +20 lines"
'

test_expect_success 'deps --dot -MG: a header not found is a dashed node, its #include a dashed edge with the condition' '
	mktree &&
	printf "#ifdef WANT\n#include \"nowhere.h\"\n#endif\n" >>tree/a.h &&
	(cd tree && hdrslim deps --dot -MG -nostdinc -DWANT main.c) >g.dot &&
	grep -qxF "	\"nowhere.h\" [label=\"nowhere.h\\nnot found\", style=\"dashed\"];" g.dot &&
	grep -qxF "	\"a.h\" -> \"nowhere.h\" [label=\"if defined(WANT)\", style=\"dashed\"];" g.dot &&
	dot_nodes g.dot | sort >got &&
	(cd tree && gcc_list main.c -MG -nostdinc -DWANT) | sort >want &&
	test_cmp want got
'

# why's text as "FROM TO STEP" lines (STEP: path:line or -include), each
# step of each chain: a step goes to where the next one starts, the last
# to HEADER.
why_steps () {
	awk '
		function flush() {
			for (i = 1; i <= n; i++)
				print from[i], (i < n ? from[i + 1] : target), at[i]
			n = 0
		}
		NR == 1 { tu = $1; target = $3; next }
		/^#/ { flush(); next }
		/^  \(-include\) / { n++; from[n] = tu; at[n] = "-include"; nextfrom = $2; next }
		/^  / { split($1, a, ":"); n++; from[n] = a[1]; at[n] = a[1] ":" a[2]; next }
		END { flush() }' "$1"
}

test_expect_success 'why --dot: the edges are exactly the steps of the chains why prints, under the same --max' '
	for spec in "kernel/fork.c linux/types.h 10" "kernel/fork.c linux/types.h 3" \
		    "kernel/fork.c linux/types.h 40" "kernel/cpu.c linux/cpumask.h 10" \
		    "kernel/exit.c linux/audit.h 10" "kernel/fork.c linux/types.h 1"; do
		set -- $spec &&
		(cd "$EX" && hdrslim why --max $3 "$1" "$2") >text &&
		(cd "$EX" && hdrslim why --dot --max $3 "$1" "$2") >g.dot &&
		why_steps text | sort -u >want &&
		dot_edges g.dot | sed "s/|.*//" | sort >got &&
		echo "$spec: $(wc -l <want) steps" &&
		test_cmp want got &&
		chains=$(grep -c "^#" text) &&
		grep -q "(union mode): $chains chains\{0,1\}\", labelloc" g.dot &&
		cut -d" " -f1,2 got | tr " " "\n" | sort -u >nodes.want &&
		dot_nodes g.dot | sort >nodes.got &&
		test_cmp nodes.want nodes.got || return 1
	done &&
	test $(dot_edges g.dot | wc -l) = 1
'

test_expect_success 'why --dot: each step is the #include line it names; its weight is the target'"'"'s in deps --dot' '
	(cd "$EX" && hdrslim why --dot --max 40 kernel/fork.c linux/types.h) >g.dot &&
	(cd "$EX" && hdrslim deps --dot kernel/fork.c) >deps.dot &&
	dot_edges g.dot >edges &&
	test $(wc -l <edges) -ge 10 &&
	while read from to label; do
		at=${label%%|*} && line=${at##*:} &&
		sed -n "${line}p" "$EX/$from" | grep -q "^#include <${to#include/}>" &&
		w=${label##*+} && w=${w%% *} &&
		test "$(dot_weights_into deps.dot "$to" | sort -u)" = "$w" ||
			{ echo "step $from $to $label"; return 1; }
	done <edges
'

test_expect_success 'why --dot: the condition and line of a conditional step, a forced -include, no graph when not included' '
	mktree &&
	(cd tree && hdrslim why --dot -nostdinc main.c d.h) >g.dot &&
	dot_edges g.dot >got &&
	printf "%s\n" "main.c b.h main.c:2|+100 lines" "b.h d.h b.h:5|if defined(FEATURE)|+80 lines" >want &&
	test_cmp want got &&
	(cd "$EX" && hdrslim why --dot kernel/fork.c stdc-predef.h) >g.dot &&
	dot_edges g.dot >got &&
	echo "kernel/fork.c /usr/include/stdc-predef.h -include|+$(wc -l </usr/include/stdc-predef.h) lines" >want &&
	test_cmp want got &&
	(cd tree && test_expect_code 1 hdrslim why --dot -nostdinc main.c nosuch.h) >out 2>err &&
	test_must_be_empty out &&
	grep -q "main.c does not include nosuch.h" err
'

# expect_cost_graph ROWS EDGES: an independent reading of the graph cost
# --dot should show.  ROWS: the shown headers, in order; EDGES: the tree's
# include edges "FROM TO".  Prints "FROM TO solid|dashed", sorted.
expect_cost_graph () {
	awk '
		NR == FNR { shown[$1] = 1; next }
		{ succ[$1] = succ[$1] " " $2; if ($1 in shown && $2 in shown && $1 != $2) direct[$1 " " $2] = 1 }
		END {
			for (e in direct) print e, "solid"
			for (a in shown) {
				delete seen; delete found; qn = 0
				split(succ[a], s, " ")
				for (i in s) if (!(s[i] in shown) && !(s[i] in seen)) { seen[s[i]] = 1; q[++qn] = s[i] }
				for (k = 1; k <= qn; k++) {
					split(succ[q[k]], s2, " ")
					for (i in s2) {
						w = s2[i]
						if (w in shown) { if (w != a && !((a " " w) in direct)) found[w] = 1; continue }
						if (!(w in seen)) { seen[w] = 1; q[++qn] = w }
					}
				}
				for (w in found) print a, w, "dashed"
			}
		}' "$1" "$2" | sort
}

# the graph cost --dot printed, in the same form
cost_graph () {
	sed -n 's/^\t"\([^"]*\)" -> "\([^"]*\)" \[.*/\1 \2/p' "$1" >cg.names &&
	sed -n 's/^\t"[^"]*" -> "[^"]*" \[.*/&/p' "$1" |
		sed 's/.*style="dashed".*/dashed/; t; s/.*/solid/' >cg.style &&
	paste -d" " cg.names cg.style | sort
}

test_expect_success 'cost --dot: the top rows as nodes, the includes between them, dashed where only hidden headers connect them' '
	(cd "$EX" && grep_edges $(find . -name "*.[ch]" | sed "s|^\./||")) | sort -u >tree.edges &&
	: >dashed.all &&
	for spec in "added 5" "added 16" "lines 4" "lines 7" "lines 10" "tus 10" "expanded 7" \
		    "direct_includers 5" "build_lines 9"; do
		set -- $spec &&
		(cd "$EX" && hdrslim cost --sort $1 --top $2) >table &&
		(cd "$EX" && hdrslim cost --dot --sort $1 --top $2) >g.dot &&
		tail -n +3 table | awk "{print \$NF}" >rows &&
		dot_nodes g.dot >got &&
		test_cmp rows got &&
		expect_cost_graph rows tree.edges >want &&
		cost_graph g.dot >got &&
		echo "$spec: $(grep -c solid want) solid, $(grep -c dashed want) dashed" &&
		grep dashed want >>dashed.all
		test_cmp want got || return 1
	done &&
	test $(wc -l <dashed.all) -ge 3
'

# a tree of 40 guarded headers h0..h39 of 1 to 60 lines, each including
# up to four others (some back: cycles), and 12 TUs including a few
mkrandom () {
	rm -rf rnd && mkdir rnd && (cd rnd && awk -v seed="$1" 'BEGIN {
		srand(seed)
		for (i = 0; i < 40; i++) {
			f = "h" i ".h"
			print "#ifndef H" i "_H\n#define H" i "_H" >f
			k = int(rand() * 5)
			for (j = 0; j < k; j++) {
				t = rand() < 0.85 ? i + 1 + int(rand() * 8) : int(rand() * 40)
				if (t < 40 && t != i)
					print "#include \"h" t ".h\"" >f
			}
			n = int(rand() * 60)
			for (j = 0; j < n; j++)
				print "int h" i "_" j ";" >f
			print "#endif" >f
		}
		for (u = 0; u < 12; u++) {
			f = "c" u ".c"
			for (j = 0; j < 3; j++)
				print "#include \"h" int(rand() * 40) ".h\"" >f
		}
	}')
}

test_expect_success 'cost --dot on generated trees: solid and dashed edges as an independent search finds them' '
	: >dashed.all &&
	for seed in 1 2 3; do
		mkrandom $seed &&
		(cd rnd && grep "^#include" *.h | sed "s/:#include \"\(.*\)\"/ \1/") | sort -u >tree.edges &&
		for spec in "added 6" "lines 8" "tus 12" "expanded 20" "direct_includers 40" \
			    "added 10 -DEXACT" "lines 15 -DEXACT"; do
			set -- $spec &&
			hdrslim cost -nostdinc $3 --sort $1 --top $2 rnd >table &&
			hdrslim cost --dot -nostdinc $3 --sort $1 --top $2 rnd >g.dot &&
			tail -n +3 table | awk "{print \$NF}" >rows &&
			dot_nodes g.dot >got &&
			test_cmp rows got &&
			expect_cost_graph rows tree.edges >want &&
			cost_graph g.dot >got &&
			grep dashed want >>dashed.all
			test_cmp want got || { echo "seed $seed, $spec"; return 1; }
		done
	done &&
	echo "$(wc -l <dashed.all) dashed edges" &&
	test $(wc -l <dashed.all) -ge 10
'

test_expect_success 'cost --dot: node values and edge weights are the table'"'"'s, conditions on direct edges' '
	(cd "$EX" && hdrslim cost --json) >c.json &&
	(cd "$EX" && hdrslim cost --dot --sort lines --top 8) >g.dot &&
	for n in $(dot_nodes g.dot); do
		lines=$(grep "\"path\": \"$n\"" c.json | sed "s/.*\"lines\": \([0-9]*\).*/\1/") &&
		added=$(grep "\"path\": \"$n\"" c.json | sed "s/.*\"added\": \([0-9]*\).*/\1/") &&
		grep -qF "\"$n\" [label=\"$n\\nlines $lines\"];" g.dot &&
		for w in $(dot_weights_into g.dot "$n"); do
			test "$w" = "$added" || { echo "$n: weight $w, added $added"; return 1; }
		done || return 1
	done &&
	mktree &&
	hdrslim cost --dot -nostdinc --sort lines --top 3 tree >g.dot &&
	dot_edges g.dot >got &&
	printf "%s\n" "b.h d.h if defined(FEATURE)|+80 lines" "b.h c.h +40 lines" >want &&
	test_cmp want got
'

# a.h -> x.h -> y.h -> b.h, a.h and b.h the longest
mkchain () {
	rm -rf chain && mkdir chain && (cd chain &&
	guarded_header a.h 100 '#include "x.h"' &&
	guarded_header x.h 5 '#include "y.h"' &&
	guarded_header y.h 6 '#include "b.h"' &&
	guarded_header b.h 50 &&
	printf '#include "a.h"\n' >m.c &&
	printf '#include "x.h"\n' >n.c)
}

test_expect_success 'cost --dot: a dashed edge names the first hidden header; a direct include replaces it; exact mode the same' '
	mkchain &&
	for mode in "" -DEXACT; do
		hdrslim cost --dot -nostdinc $mode --sort lines --top 2 chain >g.dot &&
		dot_edges g.dot >got &&
		echo "a.h b.h via x.h and 1 more|+100 lines" >want &&
		test_cmp want got &&
		grep -q "style=\"dashed\"" g.dot &&
		hdrslim cost --dot -nostdinc $mode --sort lines --top 3 chain >g.dot &&
		dot_edges g.dot >got &&
		hdrslim cost --json -nostdinc $mode chain >c.json &&
		y=$(grep "\"path\": \"y.h\"" c.json | sed "s/.*\"added\": \([0-9]*\).*/\1/") &&
		test "$y" = 112 &&
		printf "%s\n" "a.h y.h via x.h|+$y lines" "y.h b.h +100 lines" >want &&
		test_cmp want got || return 1
	done &&
	printf "#ifdef FAST\n#include \"b.h\"\n#endif\n" >>chain/a.h &&
	hdrslim cost --dot -nostdinc --sort lines --top 2 chain >g.dot &&
	dot_edges g.dot >got &&
	echo "a.h b.h if defined(FAST)|+100 lines" >want &&
	test_cmp want got &&
	! grep -q dashed g.dot
'

test_expect_success 'cost --dot: the same bytes from a kept table, with one thread, without the cache' '
	(cd "$EX" && hdrslim cost --dot --top 9 --sort lines) >one.dot &&
	(cd "$EX" && hdrslim cost --dot --top 9 --sort lines --stats) >two.dot 2>err &&
	grep -q "kept result reused" err &&
	(cd "$EX" && hdrslim cost --dot --top 9 --sort lines -j1 --no-cache) >three.dot &&
	test_cmp one.dot two.dot &&
	test_cmp one.dot three.dot &&
	grep -q "top 9 of 16 headers by lines (union mode, 8 TUs)" one.dot
'

test_expect_success 'names with a double quote and a backslash are escaped' '
	rm -rf odd && mkdir -p "odd/we\"ird\\dir" && (cd odd &&
	guarded_header "we\"ird\\dir/x.h" 7 &&
	printf "#include <x.h>\n" >m.c &&
	hdrslim deps --dot -nostdinc "-Iwe\"ird\\dir" m.c >../odd.dot &&
	hdrslim why --dot -nostdinc "-Iwe\"ird\\dir" m.c x.h >../odd-why.dot &&
	hdrslim cost --dot -nostdinc "-Iwe\"ird\\dir" . >../odd-cost.dot) &&
	grep -qxF "	\"we\\\"ird\\\\dir/x.h\" [label=\"we\\\"ird\\\\dir/x.h\\n7 lines\"];" odd.dot &&
	grep -qxF "	\"m.c\" -> \"we\\\"ird\\\\dir/x.h\" [label=\"+7 lines\"];" odd.dot &&
	grep -qF "\"we\\\"ird\\\\dir/x.h\" [label=\"we\\\"ird\\\\dir/x.h\\nadded 7\"];" odd-cost.dot
'

test_expect_success DOT 'names with a double quote and a backslash: Graphviz reads them back as they are' '
	for g in odd.dot odd-why.dot odd-cost.dot; do
		dot -Tsvg $g >g.svg &&
		grep -qF ">we&quot;ird\\dir/x.h</text>" g.svg || { echo $g; return 1; }
	done &&
	dot -Tsvg odd.dot | grep -c "class=\"node\"" >n &&
	echo 2 >want && test_cmp want n
'

test_expect_success DOT 'every output renders with dot -Tsvg' '
	mktree && mkchain &&
	(cd "$EX" && hdrslim deps --dot kernel/fork.c) >1.dot &&
	(cd "$EX" && hdrslim deps --dot -DCONFIG_SMP kernel/cpu.c) >2.dot &&
	(cd tree && hdrslim deps --dot -MG -nostdinc main.c) >3.dot &&
	(cd "$EX" && hdrslim why --dot --max 40 kernel/fork.c linux/types.h) >4.dot &&
	(cd tree && hdrslim why --dot -nostdinc main.c d.h) >5.dot &&
	(cd "$EX" && hdrslim cost --dot) >6.dot &&
	(cd "$EX" && hdrslim cost --dot --sort lines --top 6) >7.dot &&
	hdrslim cost --dot -nostdinc --sort lines --top 2 chain >8.dot &&
	hdrslim cost --dot -nostdinc -DEXACT tree >9.dot &&
	for g in 1 2 3 4 5 6 7 8 9 odd odd-why odd-cost; do
		dot -Tsvg $g.dot >$g.svg 2>$g.err &&
		test_must_be_empty $g.err &&
		grep -q "<svg" $g.svg || { echo "$g.dot"; return 1; }
	done
'

test_expect_success '--dot is one output: with --make or --json it is a usage error' '
	(cd "$EX" && test_expect_code 2 hdrslim deps --dot --make kernel/fork.c) &&
	(cd "$EX" && test_expect_code 2 hdrslim cost --dot --json) &&
	(cd "$EX" && test_expect_code 2 hdrslim lex --dot kernel/fork.c)
'

test_done
