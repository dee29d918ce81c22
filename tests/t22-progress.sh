#!/bin/bash
# t22-progress.sh: the progress line on stderr, under a pseudo-terminal
# (util-linux `script`) and without one.
#
# A small git tree whose header change touches five TUs, compiled through
# a wrapper that sleeps 0.3 s per compile, so that a run lasts long enough
# (over the half second before anything is shown) for the line to appear:
#
#   - on a terminal: "verify: k/5 TUs  R/s  M:SS left" redrawn with \r,
#     counts that only grow, the last one drawn equal to the TUs verify
#     says it compiled, at most ten redraws a second, and the line erased
#     at the end (the transcript ends in \r ESC[K);
#   - no output is ever appended to a drawn line (a message or a commit
#     line printed meanwhile erases it first);
#   - stderr not a terminal: byte for byte what --no-progress writes;
#   - --no-progress and -q on a terminal: no line; --progress into a file:
#     plain lines, no \r or escape, at most one a second, the last with
#     the time taken;
#   - the before-compile of a failing TU counts apart; series --verify
#     nests each step's compiles in the steps' line; measure counts its
#     compiles at both revisions and its gcc -E runs.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v git >/dev/null 2>&1 || skip_all "git not found"
command -v script >/dev/null 2>&1 || skip_all "script (util-linux) not found"
command -v perl >/dev/null 2>&1 || skip_all "perl not found"
script -qc true /dev/null </dev/null >/dev/null 2>&1 || skip_all "script cannot make a pseudo-terminal"

scratch_git_env

slow_compiler slowcc 0.3
SLOW=$PWD/slowcc

# a compile that also writes a line every 10 ms: verify wakes up for each
# (it reads what compiles print), and must not redraw for each
cat >chattycc <<'EOF'
#!/bin/sh
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do
	echo "note $i" >&2
	sleep 0.01
done
exec "$@"
EOF
chmod +x chattycc
CHATTY=$PWD/chattycc

# on_tty OUT CMD: runs the shell command CMD with stdin, stdout and stderr
# on a pseudo-terminal; OUT gets every byte written to it (stdout too,
# unless CMD sends it elsewhere).  Exit status: CMD's.
on_tty () {
	_out=$1
	shift
	TERM=xterm timeout -k 5 120 script -qec "$*" /dev/null </dev/null >"$_out"
}

# draws FILE PATTERN: the progress lines of a transcript matching the
# extended regex PATTERN (each redraw on a line of its own, escapes gone).
draws () {
	tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g' | grep -aE "$2" || true
}

# nothing_appended FILE: no text follows a drawn line without a \r first:
# a draw is "\r TEXT ESC[K", and after it comes the next \r or the end.
nothing_appended () {
	perl -0777 -ne 'if (/[^\r]\e\[K([^\r].{0,60})/s) { print "appended: $1\n"; exit 1 }' "$1"
}

# mktree DIR: a git tree whose include/a.h five TUs include, a.h changed
# (uncommitted) so that verify compiles all five; a.h includes b.h and
# c.h, which nothing uses.
mktree () {
	rm -rf "$1" && mkdir -p "$1/include" &&
	(cd "$1" &&
		echo "-Iinclude" >compile_flags.txt &&
		printf '#ifndef A_H\n#define A_H\n#include <b.h>\n#include <c.h>\nstruct a { int x; };\n#endif\n' >include/a.h &&
		printf '#ifndef B_H\n#define B_H\nstruct b { int y; };\n#endif\n' >include/b.h &&
		printf '#ifndef C_H\n#define C_H\nstruct c { int z; };\n#endif\n' >include/c.h &&
		for i in 1 2 3 4 5; do printf '#include <a.h>\nstruct a v%d;\n' $i >t$i.c; done &&
		git init -q && git config user.name t && git config user.email t@t.invalid &&
		git config commit.gpgsign false && git add -A && git commit -q -m initial &&
		echo "/* changed */" >>include/a.h)
}

test_expect_success 'setup' '
	mktree r &&
	(cd r && gcc -fsyntax-only -Iinclude t1.c)
'

test_expect_success 'on a terminal: verify draws done/total, rate and time left in place, ends with 5/5, erased' '
	start=$(date +%s%N) &&
	on_tty tty.raw "cd r && \"$HDRSLIM\" verify -j 2 --cc-wrapper $CHATTY >../out" &&
	end=$(date +%s%N) &&
	grep -x "verify: 5 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	draws tty.raw "^verify: [0-9]+/[0-9]+ TUs( |$)" >lines &&
	test_line_count -ge 3 lines &&
	grep -E "^verify: [0-9]/5 TUs  [0-9.]+/s  [0-9]+:[0-9][0-9] left$" lines &&
	# redrawn in place: each draw starts with \r
	grep -c $(printf "\r")verify: tty.raw &&
	# the counts only grow and never pass the total
	sed "s|^verify: \([0-9]*\)/\([0-9]*\) .*|\1 \2|" lines >counts &&
	awk "\$1 < last || \$1 > \$2 || \$2 != 5 { bad = 1 } { last = \$1 } END { exit bad }" counts &&
	# the last count drawn is what verify reports it compiled
	tail -1 lines | grep "^verify: 5/5 TUs " &&
	# at most ten redraws a second (and a couple at the end)
	n=$(grep -ac "" lines) &&
	test "$n" -le $(( (end - start) / 100000000 + 3 )) &&
	# the line is erased at the end: the last bytes are "ESC[K \r ESC[K"
	printf "\033[K\r\033[K" >want-tail &&
	tail -c 7 tty.raw >got-tail &&
	cmp want-tail got-tail &&
	nothing_appended tty.raw
'

test_expect_success 'stderr not a terminal: nothing beyond what --no-progress writes' '
	(cd r && hdrslim verify -j 2 --cc-wrapper $SLOW >../out1 2>../err1) &&
	(cd r && hdrslim verify -j 2 --cc-wrapper $SLOW --no-progress >../out2 2>../err2) &&
	test_cmp out1 out2 &&
	test_cmp err1 err2 &&
	echo "verify: compiling 5 TUs, 2 at a time" >expect &&
	test_cmp expect err1
'

test_expect_success 'on a terminal, --no-progress and -q: no line' '
	on_tty tty-off.raw "cd r && \"$HDRSLIM\" verify -j 2 --cc-wrapper $SLOW --no-progress >../out" &&
	grep -x "verify: 5 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	! grep -a "TUs  \|/5 TUs" tty-off.raw &&
	! grep -a $(printf "\033") tty-off.raw &&
	printf "verify: compiling 5 TUs, 2 at a time\r\n" >expect &&
	test_cmp expect tty-off.raw &&
	on_tty tty-q.raw "cd r && \"$HDRSLIM\" verify -q -j 2 --cc-wrapper $SLOW >../out" &&
	grep -x "verify: 5 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	test_must_be_empty tty-q.raw
'

test_expect_success '--progress into a file: plain lines, at most one a second, the last with the time taken' '
	start=$(date +%s%N) &&
	(cd r && hdrslim verify -j 1 --cc-wrapper $SLOW --progress >../out 2>../err) &&
	end=$(date +%s%N) &&
	grep -x "verify: 5 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	! grep -a "$(printf "\r")" err &&
	! grep -a "$(printf "\033")" err &&
	head -1 err | grep -x "verify: compiling 5 TUs, 1 at a time" &&
	grep "^verify: [0-9]/5 TUs" err >lines &&
	test_line_count -ge 2 lines &&
	tail -1 err | grep -E "^verify: 5/5 TUs  [0-9.]+/s  took 0:0[0-9]$" &&
	n=$(grep -c "" lines) &&
	test "$n" -le $(( (end - start) / 1000000000 + 2 )) &&
	# -q does not hide what --progress asks for
	(cd r && hdrslim verify -q -j 1 --cc-wrapper $SLOW --progress >../out 2>../err-q) &&
	tail -1 err-q | grep "^verify: 5/5 TUs " &&
	! grep "compiling" err-q
'

test_expect_success 'a regression: the before-compile counts apart, messages start on a clean line' '
	mktree r2 &&
	echo "struct a broken_here" >>r2/include/a.h &&
	test_expect_code 1 on_tty tty2.raw "cd r2 && \"$HDRSLIM\" verify -j 2 --cc-wrapper $SLOW" &&
	tr -d "\r" <tty2.raw | grep "^verify: 5 TUs compiled, 5 regressions (and 0 already failing before)" &&
	draws tty2.raw "^verify: [0-9]+/5 TUs( |$)" | tail -1 | grep "^verify: 5/5 TUs " &&
	draws tty2.raw "^verify: [0-9]+/5 TUs before the change" | tail -1 | grep "^verify: 5/5 TUs before the change " &&
	nothing_appended tty2.raw
'

test_expect_success 'series --verify: each step'"'"'s compiles nested in the steps'"'"' line' '
	mktree r3 &&
	(cd r3 && git checkout -q -- include/a.h) &&
	printf "drop include/a.h <b.h>\ndrop include/a.h <c.h>\n" >plan &&
	on_tty tty3.raw "\"$HDRSLIM\" series --verify -j 2 --cc-wrapper $SLOW r3 plan" &&
	draws tty3.raw . >text &&
	grep "^\[1/2\] a: Remove <b.h> from <a.h>$" text &&
	grep "^\[2/2\] a: Remove <c.h> from <a.h>$" text &&
	grep "series: 2 commits on hdrslim/plan, 10 TUs verified" text &&
	draws tty3.raw "^series: [0-9]/2 steps, [0-9]/5 TUs" >nested &&
	grep "^series: 0/2 steps, 5/5 TUs " nested &&
	grep "^series: 1/2 steps, 5/5 TUs " nested &&
	draws tty3.raw "^series: [0-9]/2 steps" | tail -1 | grep "^series: 2/2 steps " &&
	nothing_appended tty3.raw
'

test_expect_success 'measure: the compiles at both revisions and the gcc -E runs' '
	mktree r4 &&
	(cd r4 && git commit -q -a -m change) &&
	on_tty tty4.raw "\"$HDRSLIM\" measure --sample 2 -j 2 --cc-wrapper $SLOW r4 HEAD~1 HEAD >out4" &&
	grep "^measure: 5 TUs affected by 1 file changed" out4 &&
	draws tty4.raw "^measure: [0-9]+/5 TUs( |$)" >lines &&
	test $(grep -c "^measure: 5/5 TUs  .*took" lines) = 2 &&
	draws tty4.raw "^measure: [0-9]/2 TUs preprocessed \(gcc -E\)" | tail -1 |
		grep "^measure: 2/2 TUs preprocessed (gcc -E) " &&
	nothing_appended tty4.raw
'

test_expect_success 'every command takes --progress and --no-progress' '
	hdrslim deps -Ir/include --progress r/t1.c >a && hdrslim deps -Ir/include --no-progress r/t1.c >b &&
	test_cmp a b && grep "include/a.h" a &&
	hdrslim if-eval --progress -- 1 >a && hdrslim if-eval --no-progress -- 1 >b && test_cmp a b &&
	hdrslim lex --progress r/t1.c >a && hdrslim lex --no-progress r/t1.c >b && test_cmp a b &&
	hdrslim cost --progress r >a 2>err && test_must_be_empty err &&
	test_expect_code 1 hdrslim check --no-progress r >b 2>err && test_must_be_empty err &&
	grep "unused: #include <b.h>" b
'

test_done
