#!/bin/bash
# t11-fix-series.sh: `hdrslim fix` and `hdrslim series` change a git tree
# as commits that each compile (gcc decides), keep every byte they do not
# edit, and refuse or recover without losing work.
#
# The tree is a copy of examples/sched made into a git repository; the
# series is the plan shipped beside it (examples/sched/cleanup.plan), the
# shape of the 2017 <linux/sched.h> cleanup.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v git >/dev/null 2>&1 || skip_all "git not found"

EXAMPLE=$TEST_DIRECTORY/../examples/sched
PLAN=$EXAMPLE/cleanup.plan
CONFIGS=("" "-DCONFIG_SMP" "-DCONFIG_HOTPLUG_CPU" "-DCONFIG_SMP -DCONFIG_HOTPLUG_CPU")



# bisectable REV: every commit after REV up to HEAD compiles; back at HEAD.
bisectable () {
	local head c
	head=$(git rev-parse --abbrev-ref HEAD)
	for c in $(git rev-list --reverse "$1"..HEAD); do
		git checkout -q "$c"
		example_compiles "${CONFIGS[@]:1}" || { git checkout -q "$head"; echo "commit $c breaks"; return 1; }
	done
	git checkout -q "$head"
}


# users_of SYMBOL...: the .c files that use any of them (grep: the ground
# truth independent of hdrslim), sorted.
users_of () {
	local re
	re=$(printf '%s\\|' "$@")
	grep -lw "${re%\\|}" $(find kernel mm drivers -name '*.c') | sort
}

test_expect_success 'series --dry-run lists the steps in review order and touches nothing' '
	example_repo r0 && cd r0 &&
	hdrslim series --dry-run . "$PLAN" >out &&
	sed "s/ (plan line.*//; s/^[0-9]*\. //; s/ .*//" out >kinds &&
	printf "%s\n" split split unbackinclude unbackinclude move drop >expect &&
	test_cmp expect kinds &&
	clean_tree && test "$(git rev-list --count HEAD)" = 1
'

test_expect_success 'series carries out the plan: one commit a step, in review order' '
	example_repo r1 && cd r1 &&
	# sysrq.c gets CRLF line endings, trailing blanks and no final newline:
	# the one line series adds must be all that changes in it
	sed -i "s/\$/\r/; 3s/\r\$/   \r/" drivers/tty/sysrq.c &&
	printf %s "$(cat drivers/tty/sysrq.c)" >tmp && mv tmp drivers/tty/sysrq.c &&
	git commit -qam "odd bytes" && git tag start &&
	hdrslim series --verify --prefix sched/headers . "$PLAN" >out 2>err &&
	cat out err &&
	test "$(git rev-parse --abbrev-ref HEAD)" = hdrslim/cleanup &&
	git log --reverse --format=%s start..HEAD >subjects &&
	cat >expect <<-\EOF &&
	sched/headers: Split <linux/sched/debug.h> out of <linux/sched.h>
	sched/headers: Split <linux/sched/hotplug.h> out of <linux/sched.h>
	sched/headers: Remove <linux/sched/debug.h> from <linux/sched.h>
	sched/headers: Remove <linux/sched/hotplug.h> from <linux/sched.h>
	sched/headers: Move task_node() to <linux/sched/topology.h>
	sched/headers: Remove <linux/capability.h> from <linux/sched.h>
	EOF
	test_cmp expect subjects &&
	clean_tree
'

test_expect_success 'every commit of the series compiles in every configuration (bisectable)' '
	cd r1 && bisectable start
'

test_expect_success 'the splits change nothing outside sched.h and the new header' '
	cd r1 &&
	for c in $(git rev-list --reverse start..HEAD | head -2); do
		git diff-tree --no-commit-id --name-only -r $c >files &&
		! grep -v "^include/linux/sched\(\.h\|/debug\.h\|/hotplug\.h\)\$" files || return 1
	done
'

test_expect_success 'users include the new headers directly, and only users' '
	cd r1 &&
	users_of SCHED_DEBUG_FILTER_ALL show_state_filter show_state sched_show_task dump_cpu_task print_worker_info >debug.users &&
	grep -l "#include <linux/sched/debug.h>" $(find kernel mm drivers -name "*.c") | sort >debug.includers &&
	test_cmp debug.users debug.includers &&
	users_of sched_cpu_starting sched_cpu_activate sched_cpu_deactivate sched_cpu_dying idle_task_exit >hp.users &&
	grep -l "#include <linux/sched/hotplug.h>" $(find kernel mm drivers -name "*.c") | sort >hp.includers &&
	test_cmp hp.users hp.includers &&
	users_of task_node >tn.users &&
	grep -l "#include <linux/sched/topology.h>" $(find kernel mm drivers -name "*.c") | sort >tn.includers &&
	test_cmp tn.users tn.includers
'

test_expect_success 'sched.h loses capability.h, topology.h and the moved text' '
	cd r1 &&
	! grep -q "linux/capability.h\|linux/topology.h\|sched/debug.h\|sched/hotplug.h" include/linux/sched.h &&
	! grep -q "task_node\|show_state\|sched_cpu_dying" include/linux/sched.h &&
	grep -q "task_node" include/linux/sched/topology.h &&
	grep -q "#include <linux/topology.h>" include/linux/sched/topology.h &&
	grep -q "^#ifdef CONFIG_HOTPLUG_CPU" include/linux/sched/hotplug.h &&
	grep -q "^#ifndef _LINUX_SCHED_DEBUG_H" include/linux/sched/debug.h
'

test_expect_success 'untouched bytes stay: CRLF, trailing blanks, no final newline' '
	cd r1 &&
	git diff --numstat start HEAD -- drivers/tty/sysrq.c >numstat &&
	echo "1	0	drivers/tty/sysrq.c" >expect && test_cmp expect numstat &&
	test "$(tail -c 1 drivers/tty/sysrq.c | od -An -c | tr -d " ")" != "\\n" &&
	# every line still ends in CR (the last one has no LF: wc -l misses it)
	test "$(grep -c "$(printf "\\r")\$" drivers/tty/sysrq.c)" = "$(($(wc -l <drivers/tty/sysrq.c) + 1))" &&
	grep -q "^#include <linux/sched/debug.h>$(printf "\\r")\$" drivers/tty/sysrq.c &&
	git show start:drivers/tty/sysrq.c | sed -n 3p >a && sed -n 3p drivers/tty/sysrq.c >b && test_cmp a b
'

test_expect_success 'each commit says what it verified: the TUs that include the changed files' '
	cd r1 &&
	n=$(git log -1 --format=%B HEAD | sed -n "s/^Verified: \([0-9]*\) TUs compiled\$/\1/p") &&
	expect=$(grep -l "linux/sched.h" $(find kernel mm drivers -name "*.c") | wc -l) &&
	test "$n" = "$expect"
'

test_expect_success '--format-patch writes one mail a commit' '
	example_repo r2 && cd r2 &&
	hdrslim series --format-patch ../mails . "$PLAN" >/dev/null 2>&1 &&
	test "$(ls ../mails | wc -l)" = 6 &&
	grep -q "^Subject: \[PATCH 1/6\] sched: Split <linux/sched/debug.h>" ../mails/0001-*
'

test_expect_success 'series refuses a dirty tree and touches nothing' '
	example_repo r3 && cd r3 &&
	echo "/* local work */" >>kernel/fork.c &&
	cp kernel/fork.c fork.saved &&
	test_expect_code 2 hdrslim series . "$PLAN" 2>err &&
	grep -q "uncommitted change" err && test "$(wc -l <err)" = 1 &&
	cmp kernel/fork.c fork.saved &&
	test "$(git branch --list | wc -l)" = 1
'

test_expect_success 'a plan line naming a symbol or file that does not exist: error before anything' '
	example_repo r4 && cd r4 &&
	printf "split include/linux/sched.h -> include/linux/sched/x.h: show_state nosuch_symbol\n" >bad.plan &&
	test_expect_code 2 hdrslim series . bad.plan 2>err &&
	grep -q "^bad.plan:1: error: include/linux/sched.h declares no .nosuch_symbol." err &&
	printf "# ok\nsplit include/linux/sched.h -> include/linux/sched/x.h: show_state\ndrop include/linux/nosuch.h <linux/list.h>\n" >bad2.plan &&
	test_expect_code 2 hdrslim series . bad2.plan 2>err &&
	grep -q "^bad2.plan:3: error: no such file: include/linux/nosuch.h" err &&
	printf "shrink include/linux/sched.h\n" >bad3.plan &&
	test_expect_code 2 hdrslim series . bad3.plan 2>err &&
	grep -q "^bad3.plan:1: error: unknown step" err &&
	printf "drop include/linux/sched.h <linux/nosuch.h>\n" >bad4.plan &&
	test_expect_code 2 hdrslim series . bad4.plan 2>err &&
	grep -q "has no #include <linux/nosuch.h>" err &&
	test "$(git rev-list --all --count)" = 1 && test "$(git branch --list | wc -l)" = 1 &&
	test ! -e include/linux/sched/x.h
'

# A compiler wrapper that fails every compile once the hotplug header
# exists: the analysis is right, the "compiler" is not, so the step fails
# verification and must be undone.  It looks at the tree it compiles (its
# working directory): the before-compile runs in a mirror of the work
# tree holding the old versions, where the header is not there yet.
cat >"$TRASH_DIRECTORY/fail-hotplug" <<'EOF'
#!/bin/sh
if [ -e include/linux/sched/hotplug.h ]; then
	echo "injected.c:1:1: error: injected failure" >&2
	exit 1
fi
exec "$@"
EOF
chmod +x "$TRASH_DIRECTORY/fail-hotplug"

test_expect_success 'a step that fails to compile stops the series at the last good commit' '
	example_repo r5 && cd r5 && git tag start &&
	REPO=$PWD && export REPO &&
	test_expect_code 1 hdrslim series --verify --cc-wrapper "$TRASH_DIRECTORY/fail-hotplug" . "$PLAN" >out 2>err &&
	grep -q "cleanup.plan:9: error: step 2 (split .*hotplug.h.*) failed verification: .*injected failure" err &&
	test "$(git rev-list --count start..HEAD)" = 1 &&
	clean_tree && test ! -e include/linux/sched/hotplug.h &&
	bisectable start
'

# A compiler wrapper that interrupts the series (SIGINT to the hdrslim
# process whose pid is in $PIDFILE) while the second step is verified.
cat >"$TRASH_DIRECTORY/interrupt" <<'EOF'
#!/bin/sh
if [ -e "$REPO/include/linux/sched/hotplug.h" ] && [ ! -e "$REPO.sent" ]; then
	: >"$REPO.sent"
	kill -INT "$(cat "$PIDFILE")"
	sleep 1
fi
exec "$@"
EOF
chmod +x "$TRASH_DIRECTORY/interrupt"

test_expect_success 'an interrupt stops the series with the branch at a commit and the tree clean' '
	example_repo r6 && cd r6 && git tag start &&
	REPO=$PWD PIDFILE=$PWD/../pid && export REPO PIDFILE &&
	{ "$HDRSLIM" series --verify -j1 --cc-wrapper "$TRASH_DIRECTORY/interrupt" . "$PLAN" >out 2>err & echo $! >"$PIDFILE"; wait $!; echo $? >status; } &&
	cat err &&
	test "$(cat status)" = 130 &&
	test -e "$REPO.sent" &&
	test "$(git rev-list --count start..HEAD)" = 1 &&
	clean_tree && test ! -e include/linux/sched/hotplug.h &&
	bisectable start
'

test_expect_success 'fix --dry-run shows the diff and changes nothing' '
	example_repo f1 && cd f1 &&
	hdrslim fix --dry-run --kinds=unused . >out &&
	grep -q "^# sched: Remove <linux/capability.h> from <linux/sched.h>" out &&
	grep -q "^-#include <linux/capability.h>" out &&
	clean_tree && test "$(git rev-list --count HEAD)" = 1
'

test_expect_success 'fix makes one verified commit a finding, each compiling' '
	example_repo f2 && cd f2 && git tag start &&
	hdrslim fix --verify --kinds=unused,forward-declarable include/linux/sched.h >out 2>err &&
	cat out err &&
	git log --reverse --format=%s start..HEAD >subjects &&
	cat >expect <<-\EOF &&
	sched: Remove <linux/capability.h> from <linux/sched.h>
	sched: Declare struct mm_struct instead of including <linux/mm_types.h> in <linux/sched.h>
	sched: Declare struct nsproxy instead of including <linux/nsproxy.h> in <linux/sched.h>
	EOF
	test_cmp expect subjects &&
	grep -q "^struct mm_struct;" include/linux/sched.h &&
	grep -q "^struct nsproxy;" include/linux/sched.h &&
	git log -1 --format=%B | grep -q "^Verified: [1-9][0-9]* TUs compiled" &&
	clean_tree && bisectable start
'

test_expect_success 'fix drops a change that fails verification and keeps the tree clean' '
	example_repo f3 && cd f3 && git tag start &&
	cat >../fail-all <<-\EOF &&
	#!/bin/sh
	echo "x.c:1:1: error: injected failure" >&2
	exit 1
	EOF
	chmod +x ../fail-all &&
	# before the change the wrapper fails too: not a regression, so it lands
	hdrslim fix --verify --cc-wrapper ../fail-all --kinds=unused include/linux/sched.h >out 2>err &&
	test "$(git rev-list --count start..HEAD)" = 1 &&
	cd .. && example_repo f4 && cd f4 && git tag start && REPO=$PWD && export REPO &&
	cat >../fail-new <<-\EOF &&
	#!/bin/sh
	grep -q capability include/linux/sched.h && exec "$@"
	echo "x.c:1:1: error: injected failure" >&2
	exit 1
	EOF
	chmod +x ../fail-new &&
	test_expect_code 1 hdrslim fix --verify --cc-wrapper ../fail-new --kinds=unused include/linux/sched.h >out 2>err &&
	grep -q "^fix: dropped: sched: Remove <linux/capability.h> .*injected failure" out &&
	test "$(git rev-list --count start..HEAD)" = 0 && clean_tree
'

test_expect_success 'fix --squash-per-file: one commit for a file'"'"'s findings' '
	example_repo f5 && cd f5 && git tag start &&
	hdrslim fix --squash-per-file --kinds=unused,forward-declarable include/linux/sched.h >out 2>err &&
	test "$(git rev-list --count start..HEAD)" = 1 &&
	git log -1 --format=%s | grep -q "^sched: Clean up the includes of <linux/sched.h>" &&
	! grep -q "linux/capability.h\|linux/mm_types.h" include/linux/sched.h &&
	example_compiles "${CONFIGS[@]:1}"
'

test_expect_success 'fix refuses a dirty tree unless --allow-dirty' '
	example_repo f6 && cd f6 &&
	echo "/* local */" >>kernel/exit.c &&
	test_expect_code 2 hdrslim fix --kinds=unused include/linux/sched.h 2>err &&
	grep -q "uncommitted change.*--allow-dirty" err &&
	test "$(git rev-list --count HEAD)" = 1 &&
	hdrslim fix --allow-dirty --kinds=unused include/linux/sched.h >out 2>err &&
	test "$(git rev-list --count HEAD)" = 2 &&
	git diff --quiet HEAD~1 HEAD -- kernel/exit.c &&
	grep -q "/\* local \*/" kernel/exit.c
'

test_expect_success 'fix outside a git tree: a one-line error' '
	mkdir -p nogit && cp -R "$EXAMPLE/." nogit && cd nogit &&
	GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY && export GIT_CEILING_DIRECTORIES &&
	test_expect_code 2 hdrslim fix . 2>err &&
	test "$(wc -l <err)" = 1 && grep -q "not in a git work tree" err
'

test_done
