#!/bin/bash
# t17-kill.sh: no signal, not even SIGKILL, leaves the work tree changed.
#
# `verify` compiles the TUs that fail after a change a second time with the
# revision's versions of the changed files.  Those versions are never put in
# the work tree: they sit in a mirror under $TMPDIR.  Here verify runs on a
# copy of examples/sched with uncommitted work (a header edit that breaks
# TUs, a new file, a deleted one), under a compiler wrapper that sleeps so
# that a run lasts a few seconds, and is killed with SIGKILL twenty times at
# spread-out moments; after every kill the work tree is byte for byte what
# it was (content, mode, mtime), git sees the same changes, and some of the
# kills did land while a mirror existed (the before-compile was running).

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v git >/dev/null 2>&1 || skip_all "git not found"

scratch_git_env


slow_compiler slowcc 0.3

test_expect_success 'setup: uncommitted work that breaks TUs' '
	example_repo r &&
	sed -i "/#include <linux\/list.h>/d" r/include/linux/sched.h &&
	echo "struct fresh { int x; };" >r/include/linux/fresh.h &&
	(cd r && git rm -q --cached include/linux/topology.h && rm include/linux/topology.h) &&
	cp r/include/linux/sched.h sched.h.mine &&
	(cd r && git status --porcelain) >status.before &&
	snapshot r snap.before &&
	test_expect_code 1 hdrslim verify -j 2 --cc-wrapper "$(pwd)/slowcc" r >out 2>err &&
	grep -q "the work tree is not touched" err &&
	snapshot r snap.after && test_cmp snap.before snap.after
'

test_expect_success 'twenty SIGKILLs at spread-out moments: zero changed bytes' '
	during_before=0 &&
	for i in $(seq 1 20); do
		rm -rf "$TMPDIR"/hdrslim-verify-* &&
		hdrslim verify -j 2 --cc-wrapper "$(pwd)/slowcc" r >/dev/null 2>&1 &
		pid=$! &&
		sleep $(awk "BEGIN { print $i * 0.17 }") &&
		if ls -d "$TMPDIR"/hdrslim-verify-* >/dev/null 2>&1; then
			during_before=$((during_before + 1))
		fi &&
		{ kill -9 $pid 2>/dev/null || :; } &&
		{ wait $pid 2>/dev/null || :; } &&
		snapshot r snap.now &&
		test_cmp snap.before snap.now &&
		cmp r/include/linux/sched.h sched.h.mine &&
		(cd r && git status --porcelain) >status.now &&
		test_cmp status.before status.now || return 1
	done &&
	echo "kills during the before-compile: $during_before" &&
	test $during_before -ge 3
'

test_expect_success 'after the kills, verify still finds the same regressions' '
	test_expect_code 1 hdrslim verify r >again &&
	grep "regressions" out >a && grep "regressions" again >b &&
	test_cmp a b
'

test_done
