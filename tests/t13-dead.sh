#!/bin/bash
# t13-dead.sh: `hdrslim dead` finds what a header declares for nobody —
# unused declarations, needless forward declarations and pointless
# wrappers — and removes the wrappers as commits that compile.
#
# Ground truth is grep and gcc: a reported dead name occurs nowhere but in
# its own declarations, a wrapper's call sites are the lines grep finds,
# and the tree after --apply compiles in every configuration.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v git >/dev/null 2>&1 || skip_all "git not found"
command -v spatch >/dev/null 2>&1 && test_set_prereq SPATCH

EXAMPLE=$TEST_DIRECTORY/../examples/sched
CONFIGS=("" "-DCONFIG_SMP" "-DCONFIG_HOTPLUG_CPU" "-DCONFIG_SMP -DCONFIG_HOTPLUG_CPU")
WRAPPERS="tsk_cpus_allowed threadgroup_change_begin threadgroup_change_end"




# calls NAME: "FILE:LINE" of every call of NAME in the .c files (grep).
calls () {
	grep -rn "\\<$1(" --include='*.c' . | sed 's|^\./||; s|^\([^:]*:[0-9]*\):.*|\1|' | sort
}

test_expect_success 'dead on sched.h: exactly the planted wrappers, with the call sites grep finds' '
	example_repo r0 && cd r0 &&
	test_expect_code 1 hdrslim dead . include/linux/sched.h >out 2>err &&
	cat out err &&
	sed -n "s/^include\/linux\/sched.h:[0-9]*: wrapper: \([a-z_]*\)(.*/\1/p" out | sort >wrappers &&
	printf "%s\n" $WRAPPERS | sort >expect &&
	test_cmp expect wrappers &&
	for w in $WRAPPERS; do
		n=$(calls $w | wc -l) && m=$(calls $w | cut -d: -f1 | sort -u | wc -l) &&
		grep -q "wrapper: $w(tsk) is .*; $n call sites in $m files\$" out || return 1
		calls $w >expect.calls &&
		sed -n "s/^\([^:]*:[0-9]*\): note: call of $w()\$/\1/p" out | sort >got.calls &&
		test_cmp expect.calls got.calls || return 1
	done &&
	grep -q "tsk_cpus_allowed(tsk) is &tsk->cpus_allowed; 6 call sites in 3 files" out &&
	grep -q "threadgroup_change_begin(tsk) is cgroup_threadgroup_change_begin(tsk); 2 call sites in 2 files" out &&
	grep -q "threadgroup_change_end(tsk) is cgroup_threadgroup_change_end(tsk); 2 call sites in 2 files" out
'

test_expect_success 'dead on sched.h: exactly the two needless forward declarations' '
	cd r0 &&
	grep "needless-forward" out >fwd &&
	cat >expect <<-\EOF &&
	include/linux/sched.h:27: needless-forward: struct autogroup;: never referred to after it in this file
	include/linux/sched.h:207: needless-forward: struct sched_param;: already defined at line 86
	EOF
	test_cmp expect fwd
'

test_expect_success 'none of the look-alikes is a wrapper or a forward finding' '
	cd r0 &&
	for n in task_cpu show_state thread_group_leader is_idle_task set_task_cpu kick_process \
		get_task_comm next_task for_each_process task_node files_struct signal_struct \
		perf_event_context pid_namespace; do
		! grep -E "(wrapper|needless-forward): (struct )?$n[(; ]" out || return 1
	done
'

test_expect_success 'every unused declaration reported occurs only in its own declarations (grep)' '
	cd r0 &&
	sed -n "s/^include\/linux\/sched.h:[0-9]*: dead: .* \([A-Za-z_0-9]*\)\(()\)\{0,1\}: used nowhere in the tree\$/\1/p" out >names &&
	test -s names &&
	for n in $(sort -u names); do
		reported=$(grep -cx "$n" names) &&
		found=$(grep -rhow "$n" --include="*.c" --include="*.h" . | wc -l) &&
		test "$reported" = "$found" || { echo "$n: reported $reported, occurs $found"; return 1; }
	done
'

test_expect_success '--json carries the same findings' '
	cd r0 &&
	test_expect_code 1 hdrslim dead --json . include/linux/sched.h >json &&
	grep -q "\"wrappers\": \[" json &&
	grep -c "\"expr\": " json >n && echo 3 >expect && test_cmp expect n &&
	grep -q "\"name\": \"tsk_cpus_allowed\", .*\"expr\": \"&tsk->cpus_allowed\", .*\"files\": 3" json &&
	grep -q "\"needless_forward\": \[" json &&
	grep -q "\"name\": \"autogroup\"" json
'

test_expect_success 'unused declarations: exactly the unused names of a small tree' '
	mkdir -p fx/include fx/src && cd fx &&
	cat >include/api.h <<-\EOF &&
	#ifndef API_H
	#define API_H
	#define USED_MACRO 1
	#define UNUSED_MACRO 2
	#define INNER 3
	#define UNUSED_OUTER (INNER + 1)
	#define COND_ONLY
	typedef int used_t;
	typedef long unused_t;
	struct used_s { int a; };
	struct unused_s { int b; };
	struct node { struct node *next; };
	enum colour { RED, GREEN, BLUE };
	extern int used_var;
	extern int unused_var;
	int used_fn(void);
	int unused_fn(int x);
	int lonely_fn(void);
	int gen_foo(void);
	int thing_bar(void);
	int asm_entry(void);
	static inline int used_inline(void) { return 1; }
	static inline int unused_inline(void) { return 2; }
	#ifdef CONFIG_X
	int only_x(void);
	#endif
	#endif
	EOF
	cat >src/main.c <<-\EOF &&
	#include "api.h"
	#define CALL(n) gen_##n()
	#define MAKE_THING(n) int thing_##n(void)
	MAKE_THING(bar);
	#ifdef COND_ONLY
	static struct used_s s;
	#endif
	int main(void)
	{
		used_t t = USED_MACRO + used_fn() + used_inline() + used_var + GREEN;
		return t + CALL(foo) + s.a;
	}
	EOF
	cat >src/lib.c <<-\EOF &&
	#include "api.h"
	int used_var;
	int used_fn(void) { return 0; }
	int lonely_fn(void) { return 1; }
	EOF
	printf "\t.globl main\n\tcall asm_entry\n" >src/entry.S &&
	gcc -fsyntax-only -Iinclude src/main.c src/lib.c &&
	test_expect_code 1 hdrslim dead . include/api.h >out &&
	cat out &&
	sed -n "s/^include\/api.h:[0-9]*: dead: \(.*\): used nowhere in the tree\$/\1/p" out >got &&
	cat >expect <<-\EOF &&
	macro UNUSED_MACRO
	macro UNUSED_OUTER
	typedef unused_t
	struct unused_s
	struct node
	enum constant RED
	enum constant BLUE
	extern variable unused_var
	prototype unused_fn()
	prototype lonely_fn()
	inline function unused_inline()
	prototype only_x()
	EOF
	test_cmp expect got &&
	grep -q "^include/api.h:18: note: defined at src/lib.c:4, which nothing refers to\$" out &&
	grep -q "^include/api.h:25: note: under #if defined(CONFIG_X)\$" out
'

test_expect_success 'dead on a header with nothing to report exits 0' '
	cd fx &&
	printf "#ifndef OK_H\n#define OK_H\nint ok_fn(void);\n#endif\n" >include/ok.h &&
	printf "#include \"ok.h\"\nint f(void) { return ok_fn(); }\n" >src/ok.c &&
	hdrslim dead . include/ok.h >out &&
	test_must_be_empty out
'

test_expect_success 'dead --apply removes the wrappers, one verified commit each' '
	example_repo r1 && cd r1 && git tag start &&
	for w in $WRAPPERS; do calls $w | wc -l >$w.n || return 1; done &&
	grep -rho "&[a-z]*->cpus_allowed" --include="*.c" . | wc -l >addr.before &&
	hdrslim dead --apply --no-spatch --verify . include/linux/sched.h >out 2>err &&
	cat out err &&
	git log --reverse --format=%s start..HEAD >subjects &&
	cat >expect <<-\EOF &&
	sched: Remove the tsk_cpus_allowed() wrapper
	sched: Remove the threadgroup_change_begin() wrapper
	sched: Remove the threadgroup_change_end() wrapper
	EOF
	test_cmp expect subjects &&
	test "$(git log --format=%b start..HEAD | grep -c "^Verified: [1-9][0-9]* TUs compiled\$")" = 3 &&
	git log -1 --format=%b HEAD~2 >body &&
	grep -q "^Wrapped expression: &tsk->cpus_allowed\$" body &&
	grep -q "^  kernel/cpu.c: 78 80\$" body &&
	clean_tree
'

test_expect_success 'after --apply: no wrapper left, the call sites use the wrapped expressions' '
	cd r1 &&
	! grep -rnw "tsk_cpus_allowed\|threadgroup_change_begin\|threadgroup_change_end" --include="*.[ch]" . &&
	after=$(grep -rho "&[a-z]*->cpus_allowed" --include="*.c" . | wc -l) &&
	test $((after - $(cat addr.before))) = "$(cat tsk_cpus_allowed.n)" &&
	grep -q "cpumask_weight(&orig->cpus_allowed)" kernel/fork.c &&
	grep -q "cpumask_test_cpu(dead_cpu, &p->cpus_allowed)" kernel/cpu.c &&
	test "$(calls cgroup_threadgroup_change_begin | wc -l)" = "$(cat threadgroup_change_begin.n)" &&
	test "$(calls cgroup_threadgroup_change_end | wc -l)" = "$(cat threadgroup_change_end.n)" &&
	grep -q "^extern void cgroup_threadgroup_change_begin" include/linux/sched.h &&
	test $(wc -l <include/linux/sched.h) = $((321 - 15))
'

test_expect_success 'after --apply every .c compiles in every configuration, at every commit' '
	cd r1 && b=$(git symbolic-ref --short HEAD) &&
	for c in $(git rev-list --reverse start..HEAD); do
		git checkout -q $c && example_compiles "${CONFIGS[@]:1}" || return 1
	done &&
	git checkout -q $b
'

test_expect_success '--apply NAME removes only that wrapper; --dry-run touches nothing' '
	example_repo r2 && cd r2 &&
	hdrslim dead --apply threadgroup_change_end --dry-run --no-spatch . include/linux/sched.h >out &&
	grep -q "^# sched: Remove the threadgroup_change_end() wrapper" out &&
	grep -q "^+	cgroup_threadgroup_change_end(tsk);" out &&
	clean_tree && test "$(git rev-list --count HEAD)" = 1 &&
	hdrslim dead --apply threadgroup_change_end --no-spatch . include/linux/sched.h &&
	test "$(git rev-list --count HEAD)" = 2 &&
	grep -q "^	threadgroup_change_begin(tsk)" kernel/exit.c &&
	! grep -q "\\<threadgroup_change_end(tsk)" kernel/exit.c
'

test_expect_success 'refusals: a dirty tree, a name that is no wrapper' '
	cd r2 &&
	echo "/* x */" >>kernel/exit.c &&
	test_expect_code 2 hdrslim dead --apply tsk_cpus_allowed . include/linux/sched.h 2>err &&
	grep -q "uncommitted\|dirty\|changes" err &&
	git checkout -q kernel/exit.c &&
	test_expect_code 1 hdrslim dead --apply task_cpu --no-spatch . include/linux/sched.h >out &&
	grep -q "skipped: task_cpu() is not a wrapper" out &&
	test "$(git rev-list --count HEAD)" = 2 && clean_tree
'

test_expect_success '--cocci writes one semantic patch per wrapper' '
	example_repo r3 && cd r3 &&
	test_expect_code 1 hdrslim dead --cocci ../cocci . include/linux/sched.h >/dev/null &&
	ls ../cocci | sort >files &&
	printf "%s.cocci\n" $WRAPPERS | sort >expect && test_cmp expect files &&
	cat >expect <<-\EOF &&
	// tsk_cpus_allowed(tsk) is &tsk->cpus_allowed: write that at every call site.
	@@
	expression E;
	@@
	- tsk_cpus_allowed(E)
	+ &E->cpus_allowed
	EOF
	test_cmp expect ../cocci/tsk_cpus_allowed.cocci &&
	grep -qx "+ cgroup_threadgroup_change_begin(E)" ../cocci/threadgroup_change_begin.cocci
'

test_expect_success SPATCH 'spatch with the .cocci files rewrites the calls as --apply does' '
	cd r3 &&
	for w in $WRAPPERS; do
		for f in $(calls $w | cut -d: -f1 | sort -u); do
			spatch --very-quiet --sp-file ../cocci/$w.cocci "$f" -o "$f.new" &&
			mv "$f.new" "$f" || return 1
		done
	done &&
	example_repo ../r4 && (cd ../r4 && hdrslim dead --apply --no-spatch . include/linux/sched.h) &&
	for f in $(find kernel mm drivers -name "*.c"); do
		test_cmp ../r4/$f $f || return 1
	done
'

test_expect_success SPATCH '--apply through spatch gives the same tree as its own rewrite' '
	example_repo r5 && cd r5 &&
	hdrslim dead --apply . include/linux/sched.h 2>err &&
	grep -q "rewritten by spatch" err &&
	for f in $(git ls-files); do
		test_cmp ../r4/$f $f || return 1
	done
'

test_done
