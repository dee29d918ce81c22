#!/bin/bash
# t10-verify.sh: `hdrslim verify` against what gcc says, on scratch git
# copies of examples/sched.
#
# Ground truth: a TU regresses when gcc (with the tree's compile_flags.txt,
# -Iinclude) compiles it at the revision and not in the work tree; the TUs
# a header change touches are the .c files whose `gcc -M` lists it.  Every
# test also checks that verify left the work tree exactly as it found it
# (bytes, modes, mtimes), since it swaps the old versions in for its
# before-compile.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v git >/dev/null 2>&1 || skip_all "git not found"

# verify mirrors the work tree under $TMPDIR for its before-compile: here,
# where the tests can see that the mirror goes away
scratch_git_env
EXAMPLE=$TEST_DIRECTORY/../examples/sched


# gcc_first_error DIR FILE: the first error line gcc prints for FILE.
gcc_first_error () {
	(cd "$1" && gcc -fsyntax-only -Iinclude "$2" 2>&1 | grep -m1 'error:')
}

# gcc_fails DIR: the .c files of DIR gcc rejects, sorted.
gcc_fails () {
	(cd "$1" && for f in $(find . -name '*.c' | sed 's|^\./||' | LC_ALL=C sort); do
		gcc -fsyntax-only -Iinclude "$f" >/dev/null 2>&1 || echo "$f"
	done)
}

# gcc_includers DIR HEADER: the .c files whose gcc -M lists HEADER.
gcc_includers () {
	(cd "$1" && for f in $(find . -name '*.c' | sed 's|^\./||' | LC_ALL=C sort); do
		gcc -M -Iinclude "$f" | tr ' \\' '\n\n' | grep -qx "$2" && echo "$f"
	done)
}

# max_running LOG: the largest number of compiles running at once, from
# the wrapper's "+" (start) and "-" (end) lines.
max_running () {
	awk '/^\+/ { n++; if (n > m) m = n } /^-/ { n-- } END { print m + 0 }' "$1"
}

cat >wrap-log <<'EOF'
#!/bin/sh
# logs the compile it runs, then runs it
echo "$*" >>"$WRAP_LOG"
exec "$@"
EOF
cat >wrap-slow <<'EOF'
#!/bin/sh
# records how many compiles run at once
echo + >>"$WRAP_LOG"
sleep 0.4
"$@"
st=$?
echo - >>"$WRAP_LOG"
exit $st
EOF
chmod +x wrap-log wrap-slow

test_expect_success 'the example tree compiles with gcc' '
	example_repo base &&
	gcc_fails base >fails &&
	test_must_be_empty fails
'

test_expect_success 'a change that breaks TUs: exit 1, gcc'"'"'s first error, tree untouched' '
	example_repo r1 &&
	sed -i "/#include <linux\/list.h>/d" r1/include/linux/sched.h &&
	gcc_fails r1 >expect-fails &&
	grep -qx kernel/kthread.c expect-fails &&
	(cd r1 && git diff) >diff.before &&
	snapshot r1 snap.before &&
	sleep 0.01 &&
	test_expect_code 1 hdrslim verify r1 >out 2>err &&
	snapshot r1 snap.after &&
	test_cmp snap.before snap.after &&
	(cd r1 && git diff) >diff.after &&
	test_cmp diff.before diff.after &&
	printf "kernel/kthread.c: error: does not compile after the change: %s\n" \
		"$(gcc_first_error r1 kernel/kthread.c)" >expect-line &&
	grep -xF -f expect-line out &&
	sed -n "s/: error: does not compile after the change: .*//p" out | LC_ALL=C sort >got-fails &&
	test_cmp expect-fails got-fails &&
	n=$(wc -l <expect-fails) &&
	grep -x "verify: [0-9]* TUs compiled, $n regressions (and 0 already failing before)" out &&
	backup=$(sed -n "s/.*, in \(.*\) (the work tree is not touched)$/\1/p" err) &&
	test -n "$backup" &&
	! test -e "$backup"
'

test_expect_success 'every regression line names gcc'"'"'s first error for that TU' '
	while read -r f; do
		printf "%s: error: does not compile after the change: %s\n" \
			"$f" "$(gcc_first_error r1 "$f")"
	done <expect-fails >expect-lines &&
	grep ": error: does not compile after the change: " out >got-lines &&
	LC_ALL=C sort expect-lines >a && LC_ALL=C sort got-lines >b &&
	test_cmp a b
'

test_expect_success 'a harmless change: exit 0, every includer of sched.h compiled' '
	example_repo r2 &&
	sed -i "/#include <linux\/capability.h>/d" r2/include/linux/sched.h &&
	gcc_fails r2 >fails &&
	test_must_be_empty fails &&
	gcc_includers r2 include/linux/sched.h >includers &&
	n=$(wc -l <includers) &&
	test "$n" -gt 1 &&
	snapshot r2 snap.before &&
	hdrslim verify r2 >out &&
	grep -x "verify: $n TUs compiled, 0 regressions (and 0 already failing before)" out &&
	snapshot r2 snap.after &&
	test_cmp snap.before snap.after
'

test_expect_success 'no change: nothing to compile' '
	example_repo r3 &&
	hdrslim verify r3 >out &&
	grep -x "verify: 0 TUs compiled, 0 regressions (and 0 already failing before)" out
'

test_expect_success 'a TU that was already broken is not a regression' '
	example_repo r4 &&
	cat >r4/kernel/broken.c <<-\EOF &&
	#include <linux/sched.h>
	int broken(void) { return no_such_variable; }
	EOF
	(cd r4 && git add kernel/broken.c && git commit -q -m broken) &&
	sed -i "/#include <linux\/capability.h>/d" r4/include/linux/sched.h &&
	gcc_fails r4 >fails &&
	echo kernel/broken.c >expect &&
	test_cmp expect fails &&
	snapshot r4 snap.before &&
	hdrslim verify r4 >out &&
	grep "^kernel/broken.c: note: already failing before the change: " out &&
	grep "verify: [0-9]* TUs compiled, 0 regressions (and 1 already failing before)" out &&
	snapshot r4 snap.after &&
	test_cmp snap.before snap.after
'

test_expect_success 'already broken and newly broken together: only the new ones count' '
	sed -i "/#include <linux\/list.h>/d" r4/include/linux/sched.h &&
	snapshot r4 snap.before &&
	test_expect_code 1 hdrslim verify --json r4 >out.json &&
	test_expect_code 1 hdrslim verify r4 >out &&
	grep "^kernel/broken.c: note: already failing" out &&
	grep "^kernel/kthread.c: error: does not compile after the change" out &&
	! grep "^kernel/broken.c: error" out &&
	grep "\"tu\": \"kernel/broken.c\", \"status\": \"already-failing\"" out.json &&
	grep "\"tu\": \"kernel/kthread.c\", \"status\": \"regression\"" out.json &&
	snapshot r4 snap.after &&
	test_cmp snap.before snap.after
'

test_expect_success '--since REV checks committed changes' '
	example_repo r5 &&
	sed -i "/#include <linux\/list.h>/d" r5/include/linux/sched.h &&
	(cd r5 && git commit -q -a -m "remove list.h") &&
	hdrslim verify r5 >out &&
	grep -x "verify: 0 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	test_expect_code 1 hdrslim verify --since HEAD~1 r5 >out &&
	grep "^kernel/kthread.c: error: does not compile after the change" out &&
	test_expect_code 1 hdrslim verify r5 --since=HEAD~1 >out2 &&
	test_cmp out out2 &&
	(cd r5 && git status --porcelain) >status &&
	test_must_be_empty status
'

test_expect_success 'new and deleted files: the before-compile sees the old state, the work tree keeps the new' '
	example_repo r6 &&
	cat >r6/include/linux/fresh.h <<-\EOF &&
	struct fresh { int x; };
	EOF
	cat >r6/kernel/fresh.c <<-\EOF &&
	#include <linux/fresh.h>
	struct fresh f = { .y = 1 };
	EOF
	chmod 640 r6/kernel/fresh.c &&
	(cd r6 && git rm -q include/linux/topology.h) &&
	gcc_fails r6 >expect &&
	grep -x kernel/fresh.c expect &&
	grep -x kernel/kthread.c expect &&
	snapshot r6 snap.before &&
	test_expect_code 1 hdrslim verify r6 >out &&
	sed -n "s/: error: does not compile after the change: .*//p" out | LC_ALL=C sort >got &&
	test_cmp expect got &&
	grep "^kernel/kthread.c: error: does not compile after the change: .*linux/topology.h" out &&
	snapshot r6 snap.after &&
	test_cmp snap.before snap.after &&
	! test -e r6/include/linux/topology.h
'

# compile_commands.json fixtures (@TOP@: the tree's absolute path).  The
# second entry's command has a -D in single quotes and one in double quotes
# with escaped quotes and backslashes, as CMake writes them.
cat >compdb7.json <<\EOF
[
  {"directory": "@TOP@", "file": "kernel/kthread.c",
   "arguments": ["gcc", "-Iinclude", "-c", "-o", "kthread.o", "-MD", "-MF", "kthread.d",
                 "-Wp,-MMD,kthread.pd", "kernel/kthread.c"]},
  {"directory": "@TOP@/kernel", "file": "cpu.c",
   "command": "gcc -I ../include -DNAME='\"a b\"' -DSTR=\"\\\"c\\\\\\\\d\\\"\" -include ../quoted.h -c -ocpu.o -MMD -MT x -MQ y cpu.c"}
]
EOF
cat >quoted.h <<\EOF
_Static_assert(sizeof(NAME) == 4, "NAME is \"a b\"");
_Static_assert(sizeof(STR) == 4, "STR is \"c\\\\d\"");
EOF

test_expect_success 'compile_commands.json: arguments and command forms, no output files' '
	example_repo r7 &&
	cp quoted.h r7/ &&
	top=$(cd r7 && pwd) &&
	sed "s|@TOP@|$top|g" compdb7.json >r7/compile_commands.json &&
	(cd r7 && git add -A && git commit -q -m compdb) &&
	sed -i "/#include <linux\/list.h>/d" r7/include/linux/sched.h &&
	test_expect_code 1 hdrslim verify r7 >out &&
	grep -x "verify: 2 TUs compiled, 2 regressions (and 0 already failing before)" out &&
	printf "kernel/kthread.c: error: does not compile after the change: %s\n" \
		"$(gcc_first_error r7 kernel/kthread.c)" >expect-line &&
	grep -xF -f expect-line out &&
	grep "^kernel/cpu.c: error: does not compile after the change: ../include/linux/sched.h:" out &&
	find r7 -name "*.o" -o -name "*.d" -o -name "*.pd" -o -name x -o -name y >written &&
	test_must_be_empty written
'

test_expect_success 'compile_commands.json: the quoted -D values reach the compiler' '
	git -C r7 checkout -q -- . &&
	echo "/* touched */" >>r7/kernel/cpu.c &&
	hdrslim verify r7 >out &&
	grep -x "verify: 1 TU compiled, 0 regressions (and 0 already failing before)" out &&
	sed -i "s/== 4, \"STR/== 5, \"STR/" r7/quoted.h &&
	test_expect_code 1 hdrslim verify r7 >out &&
	grep "^kernel/cpu.c: error: .*STR is" out
'

test_expect_success '--cc-wrapper runs every affected TU through the wrapper' '
	example_repo r9 &&
	sed -i "/#include <linux\/capability.h>/d" r9/include/linux/sched.h &&
	gcc_includers r9 include/linux/sched.h >expect &&
	WRAP_LOG=$(pwd)/wrap.log hdrslim verify --cc-wrapper "$(pwd)/wrap-log" r9 >out &&
	awk "{ print \$NF }" wrap.log | LC_ALL=C sort >got &&
	test_cmp expect got &&
	grep -c -- "-fsyntax-only" wrap.log >n &&
	echo "$(wc -l <expect)" >n.expect &&
	test_cmp n.expect n
'

test_expect_success '--timeout stops a compile that hangs, with its children' '
	example_repo r10 &&
	cat >wrap-hang <<-\EOF &&
	#!/bin/sh
	case "$*" in *kthread.c) sleep 20 ;; esac
	exec "$@"
	EOF
	chmod +x wrap-hang &&
	sed -i "/#include <linux\/capability.h>/d" r10/include/linux/sched.h &&
	start=$(date +%s) &&
	hdrslim verify --timeout 1 --cc-wrapper "$(pwd)/wrap-hang" r10 >out &&
	end=$(date +%s) &&
	test $((end - start)) -lt 10 &&
	grep "^kernel/kthread.c: note: already failing before the change: timed out after 1 s" out
'

test_expect_success 'SIGTERM during the before-compile: the work tree as it was, the mirror gone' '
	example_repo r11 &&
	sed -i "/#include <linux\/list.h>/d" r11/include/linux/sched.h &&
	(cd r11 && git show HEAD:include/linux/sched.h) >orig-sched.h &&
	cat >wrap-kill <<-EOF &&
	#!/bin/sh
	if cmp -s include/linux/sched.h "$(pwd)/orig-sched.h"; then
		kill -TERM \$PPID
		sleep 5
	fi
	exec "\$@"
	EOF
	chmod +x wrap-kill &&
	snapshot r11 snap.before &&
	test_expect_code 143 hdrslim verify -j1 --cc-wrapper "$(pwd)/wrap-kill" r11 >out 2>err &&
	snapshot r11 snap.after &&
	test_cmp snap.before snap.after &&
	backup=$(sed -n "s/.*, in \(.*\) (the work tree is not touched)$/\1/p" err) &&
	test -n "$backup" &&
	! test -e "$backup"
'


test_expect_success 'Kbuild: the .cmd files'"'"' commands and dependency lists' '
	mkkbuild &&
	(cd kb-build && sh -c "$(sed -n "s/^savedcmd_[^ ]* := //p" kernel/.a.o.cmd)") &&
	test -f kb-build/kernel/a.o &&
	rm -f kb-build/kernel/a.o kb-build/kernel/.a.o.d &&
	printf "struct foo { undefined_type x; };\n" >kb/include/linux/foo.h &&
	test_expect_code 1 hdrslim verify --build kb-build kb >out 2>err &&
	grep -x "verify: 1 TU compiled, 1 regression (and 0 already failing before)" out &&
	first=$(cd kb-build && gcc -nostdinc -I"$src/include" -fsyntax-only "$src/kernel/a.c" 2>&1 | grep -m1 error:) &&
	grep -xF "kernel/a.c: error: does not compile after the change: $first" out &&
	find kb-build -name "*.o" -o -name "*.d" >written &&
	test_must_be_empty written &&
	git -C kb diff --stat >stat &&
	grep "include/linux/foo.h" stat &&
	git -C kb checkout -q -- . &&
	echo "/* touched */" >>kb/kernel/c.c &&
	hdrslim verify --build kb-build kb >out &&
	grep -x "verify: 0 TUs compiled, 0 regressions (and 0 already failing before)" out
'

test_expect_success 'Kbuild: a git worktree of the tree the build was made from' '
	mkkbuild &&
	ln -s "$src" kb-build/source &&
	git -C kb worktree add -q --detach "$PWD/kb-wt" &&
	printf "struct foo { undefined_type x; };\n" >kb-wt/include/linux/foo.h &&
	test_expect_code 1 hdrslim verify --build kb-build kb-wt >out 2>err &&
	grep -x "verify: 1 TU compiled, 1 regression (and 0 already failing before)" out &&
	grep "^kernel/a.c: error: does not compile after the change: .*kb-wt/include/linux/foo.h" out &&
	git -C kb diff --quiet &&
	git -C kb worktree remove --force "$PWD/kb-wt"
'

test_expect_success 'no copies are left under $TMPDIR' '
	ls -A "$TMPDIR" >left &&
	test_must_be_empty left
'

test_expect_success 'refusals: not a git tree, a bad revision, bad options' '
	cp -R "$EXAMPLE" plain &&
	test_expect_code 2 hdrslim verify plain >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	grep "not in a git work tree" err &&
	example_repo r12 &&
	test_expect_code 2 hdrslim verify --since no-such-rev r12 >out 2>err &&
	test_line_count = 1 err &&
	grep "no-such-rev" err &&
	test_expect_code 2 hdrslim verify --timeout x r12 2>err &&
	test_expect_code 2 hdrslim verify --cc-wrapper 2>err &&
	test_expect_code 2 hdrslim verify --bogus r12 2>err &&
	test_expect_code 2 hdrslim verify r12 r12 2>err
'

test_expect_success 'without make, -j 8 runs more than 2 compiles at once' '
	example_repo r13 &&
	sed -i "/#include <linux\/capability.h>/d" r13/include/linux/sched.h &&
	rm -f slow.log &&
	WRAP_LOG=$(pwd)/slow.log MAKEFLAGS= hdrslim verify -j 8 --cc-wrapper "$(pwd)/wrap-slow" r13 >out &&
	test "$(max_running slow.log)" -gt 2
'

test_expect_success 'make 4.4 fifo jobserver: one token granted, used, given back' '
	rm -f slow.log jobfifo &&
	mkfifo jobfifo &&
	exec 3<>jobfifo &&
	printf + >&3 &&
	WRAP_LOG=$(pwd)/slow.log MAKEFLAGS=" -j2 --jobserver-auth=fifo:$(pwd)/jobfifo" \
		hdrslim verify -j 8 --cc-wrapper "$(pwd)/wrap-slow" r13 >out 2>err &&
	grep "with make.s jobserver" err &&
	test "$(max_running slow.log)" = 2 &&
	timeout 5 dd bs=1 count=2 iflag=nonblock <&3 >tokens 2>/dev/null || : &&
	printf + >expect &&
	test_cmp expect tokens &&
	exec 3>&-
'

test_expect_success 'under make -j2 the jobserver limits it to 2 and gets its tokens back' '
	command -v make &&
	printf "all:\n\t+\$(HDRSLIM) verify -j 8 --cc-wrapper \$(WRAP) r13\n\t@echo recipe-done\n" >Makefile &&
	rm -f slow.log &&
	WRAP_LOG=$(pwd)/slow.log timeout 60 make -j2 HDRSLIM="$HDRSLIM" WRAP="$(pwd)/wrap-slow" >make.out 2>&1 &&
	cat make.out &&
	grep -x recipe-done make.out &&
	! grep -i "warning.*jobserver\|INTERNAL" make.out &&
	grep "with make.s jobserver" make.out &&
	test "$(max_running slow.log)" = 2 &&
	test "$(grep -c "^+" slow.log)" = "$(grep -c "^-" slow.log)"
'

test_expect_success 'make -j3 grants a third slot' '
	rm -f slow.log &&
	WRAP_LOG=$(pwd)/slow.log timeout 60 make -j3 HDRSLIM="$HDRSLIM" WRAP="$(pwd)/wrap-slow" >make.out 2>&1 &&
	! grep -i "warning.*jobserver\|INTERNAL" make.out &&
	test "$(max_running slow.log)" = 3
'

test_done
