#!/bin/bash
# t16-slim.sh: `hdrslim slim` says where a header's weight comes from.  On
# examples/sched (README item 9) the three heavy dependencies rank first,
# each with the #include line to cut and what the cut line's file uses:
# atomic.h needed by two inline bodies, seccomp.h for a complete type,
# nsproxy.h only through a pointer.  The
# compiler is the yardstick: the header's lines alone are the lines of the
# files gcc -M lists for it, and the lines predicted after each cut are
# what gcc -M lists once that line is deleted.  Lines outside the tree
# are never cut.  The plan that slim makes from those cuts, carried out by
# series --verify, compiles at every commit, and gcc -E -P counts after it
# the lines slim predicted.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"

EXAMPLE=$TEST_DIRECTORY/../examples/sched

# gcc_lines DIR HEADER: physical lines of HEADER and every file gcc -M lists for it.
gcc_lines () {
	(cd "$1" && gcc -x c -M -Iinclude "$2" | sed 's/\\$//' | tr ' ' '\n' |
		grep '\.h$' | sort -u | xargs cat | wc -l)
}

test_expect_success 'the header alone: the lines of what gcc -M lists' '
	hdrslim slim "$EXAMPLE" include/linux/sched.h >out &&
	n=$(gcc_lines "$EXAMPLE" include/linux/sched.h) &&
	grep -x "include/linux/sched.h alone: $n lines from [0-9]* headers" out
'

test_expect_success 'the three heavy dependencies rank first, each with its cut and class' '
	grep "^include/linux/.* brings " out | head -3 | sed "s/ brings.*//" >got &&
	printf "include/linux/%s.h\n" atomic seccomp nsproxy >expect &&
	test_cmp expect got &&
	grep -A1 "^include/linux/atomic.h brings" out | grep -x "  include/linux/sched.h:19: needed: #include <linux/atomic.h> (in inline or macro bodies: atomic_inc (in get_task_struct), atomic_dec_and_test (in put_task_struct))" &&
	grep -A1 "^include/linux/seccomp.h brings" out | grep -x "  include/linux/sched.h:21: needed: #include <linux/seccomp.h> (complete types: struct seccomp)" &&
	grep -A1 "^include/linux/nsproxy.h brings" out |
		grep -x "  include/linux/sched.h:20: declare: #include <linux/nsproxy.h> (only pointers to struct nsproxy)"
'

test_expect_success 'every predicted count is what gcc -M sees once the cut lines are gone' '
	hdrslim slim --json --top 8 "$EXAMPLE" include/linux/sched.h >out.json &&
	python3 - out.json "$EXAMPLE" <<-\PY
	import json, os, shutil, subprocess, sys, tempfile
	d = json.load(open(sys.argv[1]))
	assert len(d["heavy"]) == 8, len(d["heavy"])
	for h in d["heavy"]:
	    t = tempfile.mkdtemp()
	    tree = os.path.join(t, "tree")
	    shutil.copytree(sys.argv[2], tree)
	    cuts = {}
	    for c in h["cut"]:
	        cuts.setdefault(c["file"], set()).add(c["line"])
	    for f, lines in cuts.items():
	        p = os.path.join(tree, f)
	        text = open(p).read().split("\n")
	        text = [l for i, l in enumerate(text, 1) if i not in lines]
	        open(p, "w").write("\n".join(text))
	    m = subprocess.run(["gcc", "-x", "c", "-M", "-Iinclude", "include/linux/sched.h"],
	                       cwd=tree, capture_output=True, text=True, check=True).stdout
	    files = sorted({w for w in m.replace("\\\n", " ").split() if w.endswith(".h")})
	    n = sum(open(os.path.join(tree, f) if not f.startswith("/") else f).read().count("\n") for f in files)
	    assert n == h["lines_after"], (h["file"], n, h["lines_after"])
	    assert len(files) - 1 == h["headers_after"], (h["file"], len(files), h["headers_after"])
	    shutil.rmtree(t)
	PY
'

gcc_alone () {
	(cd "$1" && echo "#include <linux/sched.h>" | gcc -E -P -Iinclude -x c - | grep -c .)
}

test_expect_success 'the header alone as the compiler sees it: gcc -E -P non-blank lines' '
	n=$(gcc_alone "$EXAMPLE") &&
	grep -x "gcc -E -P with the tree.s own flags: $n lines from [0-9]* headers" out
'

test_expect_success '--no-gcc: the counts of hdrslim alone, the same plan' '
	hdrslim slim --no-gcc --target 310 --plan nogcc.plan "$EXAMPLE" include/linux/sched.h >out.nogcc &&
	! grep "gcc -E -P" out.nogcc &&
	grep -x "drop include/linux/sched.h <linux/atomic.h>" nogcc.plan
'

test_expect_success 'the plan takes each heavy dependency out the way it must go' '
	hdrslim slim --target 310 --plan plan "$EXAMPLE" include/linux/sched.h >out &&
	grep -x "declare include/linux/sched.h <linux/nsproxy.h>: struct nsproxy" plan &&
	grep -x "split include/linux/sched.h -> include/linux/sched_atomic.h: __put_task_struct get_task_struct put_task_struct" plan &&
	grep -x "unbackinclude include/linux/sched.h include/linux/sched_atomic.h" plan &&
	grep -x "drop include/linux/sched.h <linux/atomic.h>" plan &&
	grep -x "types include/linux/seccomp.h -> include/linux/seccomp_types.h: seccomp" plan &&
	grep -x "replace include/linux/sched.h <linux/seccomp.h>" plan &&
	grep -q "target 310 reached" out
'

test_expect_success 'series --verify carries the plan out, every commit compiles in every configuration' '
	example_repo tree &&
	hdrslim series --verify tree plan &&
	(cd tree && test "$(git rev-list --count HEAD)" = 7 &&
		for c in $(git rev-list --reverse HEAD~6..HEAD); do
			git checkout -q "$c" &&
			example_compiles -DCONFIG_SMP -DCONFIG_HOTPLUG_CPU "-DCONFIG_SMP -DCONFIG_HOTPLUG_CPU" ||
				{ echo "commit $c breaks"; exit 1; }
		done)
'

test_expect_success 'gcc -E -P counts after the series what slim predicted' '
	predicted=$(sed -n "s/^# [0-9]*\. .* leaves: then \([0-9]*\) lines (gcc -E -P).*/\1/p" plan | tail -1) &&
	test -n "$predicted" &&
	test "$(gcc_alone tree)" = "$predicted" &&
	test "$predicted" -le 310
'

test_expect_success 'measure --header: the header alone before and after the series, as gcc -M and gcc -E -P count it' '
	before=$(cd tree && git rev-parse HEAD~6) &&
	hdrslim measure --header "<linux/sched.h>" --json tree "$before" HEAD >m.json &&
	(cd tree && git worktree add -q ../old "$before") &&
	python3 - m.json tree old <<-\PY
	import json, os, subprocess, sys
	m = json.load(open(sys.argv[1]))
	def alone(tree):
	    dep = subprocess.run(["gcc", "-x", "c", "-M", "-Iinclude", "include/linux/sched.h"],
	                         cwd=tree, capture_output=True, text=True, check=True).stdout
	    files = sorted({w for w in dep.replace("\\\n", " ").split() if w.endswith(".h")})
	    lines = sum(open(os.path.join(tree, f)).read().count("\n") for f in files)
	    pp = subprocess.run(["gcc", "-E", "-P", "-Iinclude", "-x", "c", "-"], input="#include <linux/sched.h>\n",
	                        cwd=tree, capture_output=True, text=True, check=True).stdout
	    return lines, len(files) - 1, sum(1 for l in pp.splitlines() if l.strip())
	for key, tree in (("before", sys.argv[3]), ("after", sys.argv[2])):
	    lines, headers, gcc = alone(tree)
	    r = m[key]
	    assert (r["lines"], r["headers"], r["gcc_lines"]) == (lines, headers, gcc), (key, r, lines, headers, gcc)
	assert m["after"]["gcc_lines"] < m["before"]["gcc_lines"]
	PY
'

test_expect_success 'without a target the plan goes on while a commit saves lines' '
	hdrslim slim --plan all.plan "$EXAMPLE" include/linux/sched.h >out2 &&
	test $(grep -c "^# [0-9]*\. " all.plan) -gt 3 &&
	last=$(sed -n "s/^# [0-9]*\. .* leaves: then \([0-9]*\) lines (gcc -E -P).*/\1/p" all.plan | tail -1) &&
	test "$last" -lt "$(gcc_alone tree)"
'

test_expect_success 'a types split whose definitions need the rest of their header is refused' '
	example_repo tree2 &&
	echo "types include/linux/sched.h -> include/linux/sched_types.h: task_struct" >bad.plan &&
	test_expect_code 1 hdrslim series tree2 bad.plan 2>err &&
	grep -q "not a types split" err &&
	(cd tree2 && clean_tree && test "$(git rev-list --count HEAD)" = 1)
'

test_expect_success 'every body naming what the moving bodies take from the far side moves with them' '
	rm -rf two && mkdir -p two/include &&
	{ printf "#ifndef LOCK_H\n#define LOCK_H\nstruct lock { int v; };\n" &&
	  printf "static inline void raw_lock(struct lock *l) { l->v = 1; }\n" &&
	  printf "static inline void raw_unlock(struct lock *l) { l->v = 0; }\n" &&
	  seq 1 40 | sed "s/.*/int lock_pad&;/" && printf "#endif\n"; } >two/include/lock.h &&
	printf "#ifndef LOCK_TYPES_H\n#define LOCK_TYPES_H\nstruct lock;\n#endif\n" >two/include/lock_types.h &&
	printf "#ifndef TASK_H\n#define TASK_H\n#include <lock_types.h>\nstruct task { struct lock *pi; int state; };\n#define set_state(t, s) do { raw_lock((t)->pi); (t)->state = (s); raw_unlock((t)->pi); } while (0)\n#define restore_state(t) do { raw_lock((t)->pi); (t)->state = 0; raw_unlock((t)->pi); } while (0)\nint task_count(void);\n#include <lock.h>\n#endif\n" >two/include/task.h &&
	printf "#include <task.h>\nvoid f(struct task *t) { set_state(t, 1); restore_state(t); }\n" >two/user.c &&
	printf "#include <task.h>\nint g(void) { return task_count(); }\n" >two/other.c &&
	example_repo tworepo two &&
	hdrslim slim --no-gcc -I "$PWD/tworepo/include" --plan two.plan tworepo include/task.h >out.two &&
	grep -x "split include/task.h -> include/task_lock.h: set_state restore_state" two.plan ||
	grep -x "split include/task.h -> include/task/lock.h: set_state restore_state" two.plan &&
	hdrslim series --verify -I "$PWD/tworepo/include" tworepo two.plan &&
	(cd tworepo && for c in $(git rev-list --reverse HEAD); do
		git checkout -q "$c" && example_compiles || { echo "commit $c breaks"; exit 1; }
	done && ! grep -q "include <lock.h>" include/task.h)
'

# chain/: heavy.h is cut deep (base.h includes it and uses nothing of
# it), but mid.h, above base.h, calls heavy_op in an inline, and task.h,
# above mid.h, calls that inline in its own.  Both inlines must leave
# for the cut to hold, the upper one because it names the lower.
chain_tree () {
	rm -rf "$1" && mkdir -p "$1/include" &&
	{ printf "#ifndef HEAVY_H\n#define HEAVY_H\nint heavy_op(int);\n" &&
	  seq 1 60 | sed "s/.*/int heavy_pad&;/" && printf "#endif\n"; } >"$1/include/heavy.h" &&
	printf "#ifndef BASE_H\n#define BASE_H\n#include <heavy.h>\ntypedef int base_t;\n#endif\n" >"$1/include/base.h" &&
	printf "#ifndef MID_H\n#define MID_H\n#include <base.h>\nstruct mid { base_t x; };\nstatic inline int mid_fast(struct mid *m) { return heavy_op(m->x); }\nint mid_plain(struct mid *m);\n#endif\n" >"$1/include/mid.h" &&
	printf "#ifndef TASK_H\n#define TASK_H\n#include <mid.h>\nstruct task { struct mid m; };\nstatic inline int task_fast(struct task *t) { return mid_fast(&t->m) + 1; }\nint task_count(void);\n#endif\n" >"$1/include/task.h" &&
	printf "#include <task.h>\nint f(struct task *t) { return task_fast(t); }\n" >"$1/user.c" &&
	printf "#include <base.h>\nint g(void) { return heavy_op(1); }\n" >"$1/other.c" &&
	printf "#include <task.h>\nint h(void) { return task_count(); }\n" >"$1/third.c"
}

test_expect_success 'a cut deep in the closure moves the inlines above it that use the far side, in every file' '
	chain_tree chain &&
	example_repo chainrepo chain &&
	hdrslim slim --no-gcc -I "$PWD/chainrepo/include" --plan chain.plan chainrepo include/task.h >out.chain &&
	grep -x "split include/mid.h -> include/mid_heavy.h: mid_fast" chain.plan &&
	grep -x "split include/task.h -> include/task_heavy.h: task_fast" chain.plan &&
	grep -x "unbackinclude include/mid.h include/mid_heavy.h" chain.plan &&
	grep -x "unbackinclude include/task.h include/task_heavy.h" chain.plan &&
	grep -x "drop include/base.h <heavy.h>" chain.plan &&
	predicted=$(sed -n "s/^# 1\. include\/heavy.h .* leaves: then \([0-9]*\) lines.*/\1/p" chain.plan) &&
	hdrslim series --verify -I "$PWD/chainrepo/include" chainrepo chain.plan &&
	(cd chainrepo && test "$(git rev-list --count HEAD)" = 6 &&
		for c in $(git rev-list --reverse HEAD); do
			git checkout -q "$c" && example_compiles || { echo "commit $c breaks"; exit 1; }
		done) &&
	test "$(gcc_lines chainrepo include/task.h)" = "$predicted" &&
	! (cd chainrepo && gcc -x c -M -Iinclude include/task.h) | grep -q heavy.h
'

test_expect_success 'an inline the plan moves may not stay named outside a body on the near side' '
	chain_tree chain2 &&
	printf "#ifndef TASK_H\n#define TASK_H\n#include <mid.h>\nstruct task { struct mid m; };\nextern int (*task_hook)(struct mid *);\n#define TASK_HOOK_DEFAULT mid_fast\nint task_count(void);\n#endif\n" >chain2/include/task.h &&
	example_repo chain2repo chain2 &&
	hdrslim slim --no-gcc -I "$PWD/chain2repo/include" --plan chain2.plan chain2repo include/task.h >out.chain2 &&
	! grep -q "^drop include/base.h <heavy.h>" chain2.plan &&
	grep "heavy.h.*include/task.h:6 uses mid_fast, which moves to a sub-header" chain2.plan
'

test_expect_success 'a cut file that tests in #if a name the far side defines keeps its include' '
	chain_tree cond &&
	printf "#ifndef TASK_H\n#define TASK_H\n#include <heavy.h>\nstatic inline int task_fast(int x) { return heavy_op(x); }\n#ifndef heavy_flag\n#define heavy_flag 0\n#endif\nint task_count(void);\n#endif\n" >cond/include/task.h &&
	printf "#define heavy_flag 1\n" >>cond/include/heavy.h &&
	example_repo condrepo cond &&
	hdrslim slim --no-gcc -I "$PWD/condrepo/include" --plan cond.plan condrepo include/task.h >out.cond &&
	! grep -q "^drop include/task.h <heavy.h>" cond.plan &&
	grep "heavy.h.*include/task.h tests heavy_flag in #if" cond.plan
'

test_expect_success 'a name a later include also provides still needs the cut line when it is used before that include' '
	rm -rf ord && mkdir -p ord/include &&
	{ printf "#ifndef HEAVY_H\n#define HEAVY_H\ntypedef int tid_t;\nint heavy_op(int);\n" &&
	  seq 1 60 | sed "s/.*/int heavy_pad&;/" && printf "#endif\n"; } >ord/include/heavy.h &&
	printf "#ifndef SMALL_H\n#define SMALL_H\ntypedef int tid_t;\n#endif\n" >ord/include/small.h &&
	printf "#ifndef TASK_H\n#define TASK_H\n#include <heavy.h>\nstatic inline int task_fast(int x) { return heavy_op(x); }\ntid_t task_id(void);\n#include <small.h>\ntid_t task_count(void);\n#endif\n" >ord/include/task.h &&
	printf "#include <task.h>\nint f(void) { return task_fast(1) + task_id(); }\n" >ord/user.c &&
	printf "#include <task.h>\nint h(void) { return task_count(); }\n" >ord/third.c &&
	example_repo ordrepo ord &&
	hdrslim slim --no-gcc -I "$PWD/ordrepo/include" --plan ord.plan ordrepo include/task.h >out.ord &&
	! grep -q "^drop include/task.h <heavy.h>" ord.plan &&
	grep -x "types include/heavy.h -> include/heavy_types.h: tid_t" ord.plan &&
	hdrslim series --verify -I "$PWD/ordrepo/include" ordrepo ord.plan &&
	(cd ordrepo && for c in $(git rev-list --reverse HEAD); do
		git checkout -q "$c" && example_compiles || { echo "commit $c breaks"; exit 1; }
	done)
'

test_expect_success '--max-fallout: a removal that would add includes to more files is not planned' '
	chain_tree fall &&
	printf "#ifndef TASK_H\n#define TASK_H\n#include <base.h>\nbase_t task_count(void);\n#endif\n" >fall/include/task.h &&
	for i in 1 2 3; do printf "#include <base.h>\nint g$i(void) { return heavy_op($i); }\n" >fall/u$i.c; done &&
	example_repo fallrepo fall &&
	hdrslim slim --no-gcc -I "$PWD/fallrepo/include" --plan fall.plan fallrepo include/task.h &&
	grep -x "drop include/base.h <heavy.h>" fall.plan &&
	hdrslim slim --no-gcc --max-fallout 3 -I "$PWD/fallrepo/include" --plan fall3.plan fallrepo include/task.h &&
	! grep -q "^drop include/base.h <heavy.h>" fall3.plan &&
	n=$(sed -n "s/.*removing <heavy.h> from include\/base.h adds includes to \([0-9]*\) files (--max-fallout).*/\1/p" fall3.plan) &&
	test "$n" -gt 3
'

test_expect_success 'an #include outside the tree is never cut: the cut is the tree line that reaches it' '
	mkdir -p sys tree &&
	printf "#include <huge.h>\nint big;\n" >sys/big.h &&
	seq 1 50 | sed "s/.*/int huge&;/" >sys/huge.h &&
	printf "#include <big.h>\nint a;\n" >tree/a.h &&
	hdrslim slim -I "$PWD/sys" tree a.h >out &&
	grep -A1 "huge.h brings 50 lines" out | grep -x "  a.h:1: drop: #include <big.h>"
'

test_expect_success 'a header that does not exist: a one-line error' '
	test_expect_code 2 hdrslim slim "$EXAMPLE" include/linux/nosuch.h 2>err &&
	test_line_count = 1 err &&
	grep -q "nosuch.h: No such file" err
'

test_done
