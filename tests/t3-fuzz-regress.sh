#!/bin/bash
# t3-fuzz-regress.sh: replay every input the fuzzers (fuzz/, `make fuzz`)
# ever crashed on through the real binary.
#
# tests/fuzz-crashes/ holds minimized crash, leak and timeout inputs, named
# after the fuzz target that found them and what went wrong:
#
#   lex-<what>.c      an input of fuzz/fuzz_lex: the file's bytes as they are
#   ifeval-<what>.c   an input of fuzz/fuzz_ifeval: one mode byte (see
#                     fuzz/fuzz_ifeval.c), then the file; the mode byte is
#                     dropped here.  Reproducers are written self-contained
#                     (they #define what they use of the fuzzer's prelude).
#
# Each file is replayable as is with the fuzzer that found it
# (fuzz/build/fuzz_ifeval tests/fuzz-crashes/ifeval-x.c).  Here it is copied
# as x.c into a scratch directory and run through `hdrslim deps --exact x.c`
# and `hdrslim deps --union x.c`.  Either may report problems in x.c, but
# must end with a documented exit status (0, 1 or 2): never by a signal
# (>= 128), never with a sanitizer report (86 under `make asan`), never an
# internal error (70), and within the timeout (124).  Without crash files
# only the directory's existence is checked.

. "$(dirname "$0")/lib.sh"

CRASH_DIR=$TEST_DIRECTORY/fuzz-crashes

test_expect_success 'tests/fuzz-crashes/ exists' '
	test -d "$CRASH_DIR"
'

# run ARGS...: run hdrslim, stdout -> out, stderr -> err, status -> $rc.
run () {
	rc=0
	hdrslim "$@" >out 2>err || rc=$?
	{
		echo "--- hdrslim $* -> exit $rc"
		echo "--- stdout:"
		head -c 2000 out
		echo "--- stderr:"
		head -c 4000 err
		echo "---"
	}
}

# status_ok: $rc is 0, 1 or 2.
status_ok () {
	case $rc in
	0|1|2) return 0 ;;
	124) echo "TIMED OUT (> ${HDRSLIM_TIMEOUT}s)" ;;
	"$HDRSLIM_SANITIZER_EXIT") echo "SANITIZER REPORT (exit $rc)" ;;
	70) echo "INTERNAL ERROR (exit 70)" ;;
	*)
		if test "$rc" -ge 128; then
			echo "KILLED BY SIGNAL $((rc - 128))"
		else
			echo "exit status $rc, wanted 0, 1 or 2"
		fi
		;;
	esac
	return 1
}

# make_input CRASHFILE: the file as x.c in the current directory.
make_input () {
	case ${1##*/} in
	ifeval-*) tail -c +2 "$1" >x.c ;;
	*) cp "$1" x.c ;;
	esac
}

for crash in "$CRASH_DIR"/*; do
	test -f "$crash" || continue
	name=${crash##*/}
	case $name in
	README*|.*) continue ;;
	esac
	for mode in exact union; do
		test_expect_success "$name: deps --$mode exits 0, 1 or 2 in time" '
			d=$(mktemp -d "$TRASH_DIRECTORY/case.XXXXXX")
			cd "$d"
			make_input "$crash"
			run deps --'"$mode"' x.c
			status_ok
		'
	done
done

test_done
