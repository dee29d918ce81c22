# tests/lib.sh: a tiny git-style test framework, sourced by every tests/tN-*.sh.
#
# Usage in a test script:
#
#     . "$(dirname "$0")/lib.sh"
#     test_expect_success 'name' '
#         hdrslim deps main.c >out &&
#         test_cmp expect out
#     '
#     test_expect_success PREREQ 'name' 'code'   # skipped unless PREREQ is set
#     test_todo 'name' 'code'     # a wish: failure is reported, not counted
#     test_done
#
# Each test body runs in a subshell with `set -e`, in the script's scratch
# directory $TRASH_DIRECTORY (tests/out/<script name>.<pid>/, created at start,
# removed when every test passed unless TEST_KEEP=1).  It prints TAP:
# "ok N - name" / "not ok N - name", followed on failure by the test's code
# and its output as "#" comments.  Run a script with -v (or TEST_VERBOSE=1)
# to see the output of passing tests too.
#
# $HDRSLIM is the absolute path of the binary under test (default: the
# hdrslim next to tests/).  Call it through the `hdrslim` shell function,
# which wraps it in `timeout` ($HDRSLIM_TIMEOUT seconds, default 30) so a
# hang shows up as exit status 124 instead of a stuck test run.

TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd)
TEST_NAME=$(basename "$0" .sh)
TEST_OUTPUT_DIRECTORY=$TEST_DIRECTORY/out
TRASH_DIRECTORY=$TEST_OUTPUT_DIRECTORY/$TEST_NAME.$$

: "${HDRSLIM:=$TEST_DIRECTORY/../hdrslim}"
case $HDRSLIM in
/*) ;;
*) HDRSLIM=$(pwd)/$HDRSLIM ;;
esac
export HDRSLIM
: "${HDRSLIM_TIMEOUT:=30}"

# With a sanitizer build (make asan), a report must not look like the
# documented exit status 1: make ASan/UBSan/LSan exit with 86, which no
# test accepts.
HDRSLIM_SANITIZER_EXIT=86
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=$HDRSLIM_SANITIZER_EXIT"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=$HDRSLIM_SANITIZER_EXIT:print_stacktrace=1"
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}exitcode=$HDRSLIM_SANITIZER_EXIT"
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS

# Predictable tools: C locale (sort order, messages), no user gcc options.
LC_ALL=C
LANG=C
export LC_ALL LANG
unset GCC_EXEC_PREFIX COMPILER_PATH LIBRARY_PATH CPATH C_INCLUDE_PATH \
	CPLUS_INCLUDE_PATH OBJC_INCLUDE_PATH DEPENDENCIES_OUTPUT \
	SUNPRO_DEPENDENCIES SOURCE_DATE_EPOCH

test_verbose=${TEST_VERBOSE:-}
for arg; do
	case $arg in
	-v|--verbose) test_verbose=1 ;;
	esac
done

test_count=0
test_fail=0
test_skip=0
test_todo_fail=0
test_prereqs=" "

_test_rm_trash () {
	if test -d "$TRASH_DIRECTORY"; then
		chmod -R u+rwx "$TRASH_DIRECTORY" 2>/dev/null
		rm -rf "$TRASH_DIRECTORY"
	fi
}

# Scratch directories are per process (tests/out/<script>.<pid>) so that
# concurrent runs do not trample each other; leftovers of earlier runs of
# this script whose process is gone are removed here.
for _d in "$TEST_OUTPUT_DIRECTORY/$TEST_NAME".*; do
	_p=${_d##*.}
	case $_p in
	''|*[!0-9]*) continue ;;
	esac
	kill -0 "$_p" 2>/dev/null && continue
	chmod -R u+rwx "$_d" 2>/dev/null
	rm -rf "$_d"
done
mkdir -p "$TRASH_DIRECTORY" || {
	echo "Bail out! cannot create $TRASH_DIRECTORY"
	exit 1
}
cd "$TRASH_DIRECTORY" || exit 1
# hdrslim keeps a cache under $XDG_CACHE_HOME (else $HOME/.cache): give each
# script its own, empty at start, so runs neither see stale state nor touch
# the user's.
HOME=$TRASH_DIRECTORY
XDG_CACHE_HOME=$TRASH_DIRECTORY/.cache
export HOME XDG_CACHE_HOME
_test_log=$TEST_OUTPUT_DIRECTORY/$TEST_NAME.log.$$

# The binary under test, with a hang guard.  Exit status 124 = timed out,
# >= 128 = killed by a signal (crash).
hdrslim () {
	timeout -k 5 "$HDRSLIM_TIMEOUT" "$HDRSLIM" "$@"
}

# Prerequisites, as in git: test_set_prereq NAME; test_have_prereq NAME.
test_set_prereq () {
	test_prereqs="$test_prereqs$1 "
}
test_have_prereq () {
	case $test_prereqs in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# Skip the whole script (e.g. a tool it needs is missing).
skip_all () {
	echo "1..0 # SKIP $*"
	_test_rm_trash
	exit 0
}

say () {
	printf '%s\n' "$*"
}

_test_run () {
	# $1 = code.  Runs it with set -e in a subshell, stdin from /dev/null,
	# all output into the log; the status is returned.  Note: the subshell
	# is NOT put in an if/&&/|| context, since that would disable set -e.
	_test_status=0
	(
		cd "$TRASH_DIRECTORY" || exit 1
		set -e
		eval "$1"
	) </dev/null >"$_test_log" 2>&1
	_test_status=$?
	return 0
}

_test_show_failure () {
	# $1 = code
	printf '%s\n' "$1" | sed -e '/^[[:space:]]*$/d' -e 's/^/#	/'
	if test -s "$_test_log"; then
		echo "#	--- output (exit status $_test_status) ---"
		sed -e 's/^/#	/' "$_test_log"
	else
		echo "#	--- no output (exit status $_test_status) ---"
	fi
}

_test_show_verbose () {
	if test -n "$test_verbose" && test -s "$_test_log"; then
		sed -e 's/^/#	/' "$_test_log"
	fi
}

# test_expect_success [PREREQ] 'name' 'code'
test_expect_success () {
	if test $# = 3; then
		_test_prereq=$1
		shift
	else
		_test_prereq=
	fi
	test $# = 2 || {
		echo "Bail out! bug in test script: test_expect_success needs 2 or 3 arguments"
		exit 1
	}
	test_count=$((test_count + 1))
	if test -n "$_test_prereq" && ! test_have_prereq "$_test_prereq"; then
		test_skip=$((test_skip + 1))
		say "ok $test_count # skip $1 (missing $_test_prereq)"
		return 0
	fi
	_test_run "$2"
	if test "$_test_status" = 0; then
		say "ok $test_count - $1"
		_test_show_verbose
	else
		test_fail=$((test_fail + 1))
		say "not ok $test_count - $1"
		_test_show_failure "$2"
	fi
	rm -f "$_test_log"
	return 0
}

# test_todo 'name' 'code': something we would like to hold but do not
# require; a failure prints "not ok N - name # TODO" and does not fail the
# script.
test_todo () {
	test_count=$((test_count + 1))
	_test_run "$2"
	if test "$_test_status" = 0; then
		say "ok $test_count - $1"
		_test_show_verbose
	else
		test_todo_fail=$((test_todo_fail + 1))
		say "not ok $test_count - $1 # TODO not required"
		test -n "$test_verbose" && _test_show_failure "$2"
	fi
	rm -f "$_test_log"
	return 0
}

test_done () {
	rm -f "$_test_log"
	echo "1..$test_count"
	_msg=""
	test "$test_skip" = 0 || _msg="$_msg, $test_skip skipped"
	test "$test_todo_fail" = 0 || _msg="$_msg, $test_todo_fail TODO"
	if test "$test_fail" = 0; then
		echo "# passed all $test_count test(s)$_msg"
		cd "$TEST_DIRECTORY" || exit 1
		test -n "${TEST_KEEP:-}" || _test_rm_trash
		exit 0
	fi
	echo "# failed $test_fail among $test_count test(s)$_msg"
	echo "# scratch files kept in $TRASH_DIRECTORY"
	exit 1
}

# ---- helpers usable inside test bodies ----------------------------------

# test_cmp EXPECTED ACTUAL: files must be identical (shows a diff otherwise).
test_cmp () {
	diff -u "$1" "$2"
}

# test_must_be_empty FILE
test_must_be_empty () {
	if test -s "$1"; then
		echo "'$1' is not empty, it contains:"
		cat "$1"
		return 1
	fi
}

# test_expect_code WANT CMD...: run CMD, its exit status must be WANT.
test_expect_code () {
	_want=$1
	shift
	_got=0
	"$@" || _got=$?
	if test "$_got" != "$_want"; then
		echo "test_expect_code: '$*' exited with $_got, wanted $_want"
		return 1
	fi
}

# test_grep [-v] [grep options] PATTERN FILE: like grep -q but shows the file
# when it fails.
test_grep () {
	_neg=
	if test "$1" = "-v"; then
		_neg=1
		shift
	fi
	eval "_file=\${$#}"
	if test -n "$_neg"; then
		if ! grep "$@" >/dev/null; then
			return 0
		fi
		echo "test_grep: unexpected match for '$*' in $_file:"
	else
		if grep "$@" >/dev/null; then
			return 0
		fi
		echo "test_grep: no match for '$*' in $_file:"
	fi
	sed 's/^/| /' "$_file"
	return 1
}

# test_line_count OP N FILE, e.g. test_line_count = 1 err
test_line_count () {
	_n=$(wc -l <"$3" | tr -d ' ')
	if ! test "$_n" "$1" "$2"; then
		echo "test_line_count: $3 has $_n line(s), wanted $1 $2:"
		sed 's/^/| /' "$3"
		return 1
	fi
}

# make_rule_deps: read gcc -M style make rules on stdin, print their
# prerequisites one per line, without the target(s) and without the first
# prerequisite of each rule (the source file itself).  Handles " \"
# continuation lines.  (File names with spaces are not supported.)
make_rule_deps () {
	sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' |
	sed -n 's/^[^:]*:[[:space:]]*//p' |
	awk '{ for (i = 2; i <= NF; i++) print $i }'
}

# normalize_paths: stdin = one path per line; stdout = the same paths
# lexically normalized (no ./, no dir/../, no //), relative to the current
# directory when inside it, absolute otherwise.  No symlink resolution.
normalize_paths () {
	sed '/^$/d' | tr '\n' '\0' | xargs -0 -r realpath -s -m --relative-base=.
}

# uniq_keep_order: drop repeated lines, keeping the first occurrence.
uniq_keep_order () {
	awk '!seen[$0]++'
}

# guarded_header NAME LINES [LINE...]: a guarded header of exactly LINES
# lines, the given lines (e.g. #include lines) after the guard, filler after
# them; the guard macro is NAME's base name in capitals (a.h: A_H).
guarded_header () {
	_gh_name=$1 _gh_lines=$2
	shift 2
	_gh_guard=$(basename "$_gh_name" | tr a-z. A-Z_)
	{
		echo "#ifndef $_gh_guard"
		echo "#define $_gh_guard"
		for _gh_line; do echo "$_gh_line"; done
		_gh_n=$((3 + $#))
		while test $_gh_n -lt "$_gh_lines"; do echo "/* filler */"; _gh_n=$((_gh_n + 1)); done
		echo "#endif"
	} >"$_gh_name"
}

# ---- git copies of the example tree (verify, fix, series, measure, dead,
# split work on git trees) ----

# example_repo DIR [SRC]: DIR becomes a committed git copy of SRC (default
# examples/sched), with its own identity so that commits work anywhere.
example_repo () {
	rm -rf "$1" &&
	mkdir -p "$1" &&
	cp -R "${2:-$TEST_DIRECTORY/../examples/sched}/." "$1" &&
	(cd "$1" && git init -q && git config user.name "hdrslim tests" &&
		git config user.email tests@hdrslim.invalid &&
		git config commit.gpgsign false && git add -A && git commit -q -m initial)
}

# example_compiles [FLAGS...]: every .c below the current directory
# compiles with gcc -Iinclude -Wall -Werror, with no -D and then with each
# FLAGS word (a set of -D flags, e.g. "-DCONFIG_SMP -DCONFIG_HOTPLUG_CPU").
example_compiles () {
	local f c
	for f in $(find . -name '*.c' | sort); do
		for c in "" "$@"; do
			gcc -std=gnu11 -Wall -Werror -fsyntax-only -Iinclude $c "$f" ||
				{ echo "does not compile: $f $c"; return 1; }
		done
	done
}

# clean_tree: no tracked file of the current git tree is changed (tests
# keep their scratch files in the work tree, untracked).
clean_tree () {
	test -z "$(git status --porcelain --untracked-files=no)"
}

# mkkbuild: a miniature Kbuild tree kb/ and its output directory kb-build/
# (make O=BUILD), with the .cmd files fixdep writes: kernel/a.o and
# kernel/b.o are built, a.o's dependencies name include/linux/foo.h (and
# its command a quoted -D, which a.c checks); kernel/c.c includes foo.h
# too but is not built in this configuration; linux/bar.h is included by
# nothing.  The commands name the tree by its absolute path ($src); kb is
# a git repository with one commit.  Sets src and build.
mkkbuild () {
	rm -rf kb kb-build
	mkdir -p kb/include/linux kb/kernel kb-build/include/generated kb-build/kernel
	src=$(cd kb && pwd)
	build=$(cd kb-build && pwd)
	touch kb/Kbuild kb/Kconfig
	: >kb/include/linux/kconfig.h
	: >kb/include/linux/compiler_types.h
	: >kb/include/linux/compiler-version.h
	printf 'struct foo { int x; };\n' >kb/include/linux/foo.h
	printf '/* bar */\nstruct bar {\n\tint y;\n};\n\n' >kb/include/linux/bar.h
	printf '#include <linux/foo.h>\nstruct foo a;\n_Static_assert(sizeof(KBUILD_MODFILE) == 9, "the quoted -D");\n' >kb/kernel/a.c
	printf 'int b;\n' >kb/kernel/b.c
	printf '#include <linux/foo.h>\nstruct foo c;\n' >kb/kernel/c.c
	: >kb-build/include/generated/autoconf.h
	for o in a b; do
		{
			printf 'savedcmd_kernel/%s.o := gcc -Wp,-MMD,kernel/.%s.o.d -nostdinc -I%s/include -I./include -include %s/include/linux/kconfig.h -D__KERNEL__ -Wall -DKBUILD_MODFILE='"'"'"kernel/%s"'"'"' -DKBUILD_BASENAME='"'"'"%s"'"'"' -c -o kernel/%s.o %s/kernel/%s.c  \n\n' \
				"$o" "$o" "$src" "$src" "$o" "$o" "$o" "$src" "$o"
			printf 'source_kernel/%s.o := %s/kernel/%s.c\n\n' "$o" "$src" "$o"
			printf 'deps_kernel/%s.o := \\\n    $(wildcard include/config/FOO) \\\n' "$o"
			test "$o" = b || printf '  %s/include/linux/foo.h \\\n' "$src"
			printf '  %s/include/linux/kconfig.h \\\n' "$src"
			printf '\nkernel/%s.o: $(deps_kernel/%s.o)\n\n$(deps_kernel/%s.o):\n' "$o" "$o" "$o"
		} >"kb-build/kernel/.$o.o.cmd"
	done
	(cd kb && git init -q && git config user.name t && git config user.email t@t.invalid &&
		git add -A && git commit -q -m initial)
}

# snapshot DIR OUT: every file of DIR (outside .git) with mode, mtime to
# the nanosecond and checksum; two snapshots equal when nothing changed.
snapshot () {
	(cd "$1" && find . -path ./.git -prune -o -print | LC_ALL=C sort |
		while read -r f; do
			if test -f "$f"; then
				printf '%s %s %s\n' "$f" "$(stat -c '%a %.9Y' "$f")" "$(cksum <"$f")"
			else
				printf '%s %s\n' "$f" "$(stat -c '%F %a' "$f")"
			fi
		done) >"$2"
}

# scratch_git_env: git never finds the hdrslim repository above the trash
# directory (the tests edit work trees), and $TMPDIR is inside the trash
# directory, where a test sees what a command leaves there.
# slow_compiler FILE SECONDS: a --cc-wrapper that waits before each
# compile, so a run lasts long enough to watch (progress) or kill (t17)
slow_compiler () {
	printf '#!/bin/sh\nsleep %s\nexec "$@"\n' "$2" >"$1" &&
	chmod +x "$1"
}

scratch_git_env () {
	GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY
	export GIT_CEILING_DIRECTORIES
	TMPDIR=$TRASH_DIRECTORY/tmp
	export TMPDIR
	mkdir -p "$TMPDIR"
}
