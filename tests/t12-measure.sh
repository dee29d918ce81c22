#!/bin/bash
# t12-measure.sh: `hdrslim measure REV1 REV2` against figures the test
# computes itself, on scratch git copies of examples/sched.
#
# Ground truth, at each revision (checked out in a separate clone):
# the affected TUs are the .c files that include the changed header
# (grep); a TU's lines are the lines (wc -l) of the TU and of every file
# `gcc -M` lists for it; gcc's figure is `gcc -E -Iinclude FILE | wc -l`.
# Every test checks that the user's work tree, its uncommitted change and
# its untracked file are left exactly as they were, and that the scratch
# work tree measure checks the revisions out in is gone.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v git >/dev/null 2>&1 || skip_all "git not found"

# the scratch work tree goes under $TMPDIR: here, where the tests can see
# that it goes away
scratch_git_env
EXAMPLE=$TEST_DIRECTORY/../examples/sched


# no_scratch_left: measure removed its scratch work tree.
no_scratch_left () {
	ls "$TMPDIR" >left &&
	test_must_be_empty left
}

# at_rev REV: the clone `truth` checked out at REV.
at_rev () {
	(cd truth && git checkout -q --detach "$1")
}

# truth_lines FILE: FILE's lines plus those of every file gcc -M lists.
truth_lines () {
	(cd truth && gcc -M -Iinclude "$1" | tr ' \\' '\n\n' | grep -v ':$' | grep . |
		LC_ALL=C sort -u | xargs cat | wc -l)
}

# truth_gcc FILE: what gcc -E prints for FILE, in lines.
truth_gcc () {
	(cd truth && gcc -E -Iinclude "$1" | wc -l)
}

# field JSON TU NAME: NAME's value in TU's result line.
field () {
	grep "^  {\"tu\": \"$2\"," "$1" | sed -n "s/.*\"$3\": \\([^,}]*\\).*/\\1/p"
}

test_expect_success 'setup: a commit that removes <linux/capability.h> from sched.h, work in progress on top' '
	example_repo r &&
	REV1=$(cd r && git rev-parse HEAD) &&
	sed -i "/#include <linux\/capability.h>/d" r/include/linux/sched.h &&
	(cd r && git commit -q -a -m "sched: Remove <linux/capability.h> from <linux/sched.h>") &&
	REV2=$(cd r && git rev-parse HEAD) &&
	echo "$REV1" >rev1 && echo "$REV2" >rev2 &&
	# uncommitted work that measure must neither touch nor measure: a
	# header every TU includes grows by 100 lines, a .c file changes
	for i in $(seq 100); do echo "/* wip $i */"; done >>r/include/linux/types.h &&
	echo "/* wip */" >>r/kernel/cpu.c &&
	echo "notes" >r/untracked.txt &&
	git clone -q r truth &&
	(cd r && grep -rl --include="*.c" "#include <linux/sched.h>" . | sed "s|^\./||" | LC_ALL=C sort) >affected &&
	test "$(wc -l <affected)" -gt 2 &&
	grep -qx kernel/fork.c affected
'

test_expect_success 'measure: the TUs that include sched.h, the tree untouched' '
	REV1=$(cat rev1) REV2=$(cat rev2) &&
	snapshot r snap.before &&
	sleep 0.01 &&
	hdrslim measure --json --sample 100 r "$REV1" "$REV2" >out.json 2>err &&
	snapshot r snap.after &&
	test_cmp snap.before snap.after &&
	no_scratch_left &&
	sed -n "s/^  {\"tu\": \"\([^\"]*\)\".*/\1/p" out.json >got &&
	test_cmp affected got &&
	grep "\"changed\": \[\"include/linux/sched.h\"\], \"tus\": $(wc -l <affected)," out.json
'

test_expect_success 'hdrslim lines: every file of the closure at each revision, as gcc -M lists them' '
	while read -r f; do
		at_rev "$(cat rev1)" && b=$(truth_lines "$f") &&
		at_rev "$(cat rev2)" && a=$(truth_lines "$f") &&
		echo "$f $b $a $((b - a))"
	done <affected >expect &&
	while read -r f; do
		echo "$f $(field out.json "$f" lines_before) $(field out.json "$f" lines_after) $(field out.json "$f" lines_saved)"
	done <affected >got &&
	test_cmp expect got
'

test_expect_success 'lines saved: capability.h and the removed line; only the line where capability.h stays' '
	at_rev "$(cat rev1)" &&
	cap=$(wc -l <truth/include/linux/capability.h) &&
	s1=$(wc -l <truth/include/linux/sched.h) &&
	at_rev "$(cat rev2)" &&
	s2=$(wc -l <truth/include/linux/sched.h) &&
	test "$cap" -gt 10 &&
	while read -r f; do
		if (cd truth && gcc -M -Iinclude "$f" | tr " \\\\" "\n\n" | grep -qx include/linux/capability.h)
		then
			echo "$f $((s1 - s2))"
		else
			echo "$f $((cap + s1 - s2))"
		fi
	done <affected >expect &&
	grep -x "kernel/fork.c $((s1 - s2))" expect &&
	while read -r f; do
		echo "$f $(field out.json "$f" lines_saved)"
	done <affected >got &&
	test_cmp expect got &&
	total=$(awk "{ s += \$2 } END { print s }" expect) &&
	grep "\"lines_saved\": $total," out.json
'

test_expect_success 'gcc -E lines: what gcc -E prints at each revision' '
	while read -r f; do
		at_rev "$(cat rev1)" && b=$(truth_gcc "$f") &&
		at_rev "$(cat rev2)" && a=$(truth_gcc "$f") &&
		echo "$f $b $a"
	done <affected >expect &&
	while read -r f; do
		echo "$f $(field out.json "$f" gcc_lines_before) $(field out.json "$f" gcc_lines_after)"
	done <affected >got &&
	test_cmp expect got &&
	grep "\"sampled\": $(wc -l <affected)," out.json
'

test_expect_success 'every TU compiled at both revisions, with a time' '
	while read -r f; do
		b=$(field out.json "$f" seconds_before) && a=$(field out.json "$f" seconds_after) &&
		timed=$(awk "BEGIN { print ($b > 0 && $a > 0) ? \"timed\" : \"untimed\" }") &&
		echo "$f $(field out.json "$f" status_before) $(field out.json "$f" status_after) $timed"
	done <affected >got &&
	sed "s/$/ 0 0 timed/" affected >expect &&
	test_cmp expect got
'

test_expect_success 'text: the summary and the table; the default sample is 5 TUs, the same each run' '
	REV1=$(cat rev1) REV2=$(cat rev2) &&
	n=$(wc -l <affected) &&
	(cd r && hdrslim measure -q HEAD~1 HEAD) >out &&
	grep "^measure: $n TUs affected by 1 file changed between HEAD~1 (${REV1:0:12}) and HEAD (${REV2:0:12})$" out &&
	grep "^ *lines(hdrslim) *lines(gcc -E, 5 sampled) *compile s$" out &&
	total=$(grep -o "\"lines_saved\": [0-9]*, \"gcc" out.json | grep -o "[0-9]*") &&
	before=$(grep -o "\"lines_before\": [0-9]*, \"lines_after\": [0-9]*, \"lines_saved\": [0-9]*, \"gcc" out.json | grep -o "[0-9]*" | head -1) &&
	test "$(sed -n "s/^  before  *\([0-9,]*\) .*/\1/p" out | tr -d ,)" = "$before" &&
	grep "^  saved  *[0-9,]* (" out &&
	test "$(sed -n "s/^  saved  *\([0-9,]*\) .*/\1/p" out | tr -d ,)" = "$total" &&
	grep "^kernel/fork.c  *[0-9,]*  *[0-9,]*  *1 " out &&
	hdrslim measure -q --json HEAD~1 HEAD -C r >a.json &&
	hdrslim measure -q --json r HEAD~1 HEAD >b.json &&
	grep -c "\"sampled\": true" a.json >count &&
	echo 5 >expect &&
	test_cmp expect count &&
	grep "\"sampled\": true" a.json | sed "s/, \"lines_after.*//" >sa &&
	grep "\"sampled\": true" b.json | sed "s/, \"lines_after.*//" >sb &&
	test_cmp sa sb &&
	no_scratch_left
'

test_expect_success '--top N shows N TUs' '
	hdrslim measure -q --top 2 r HEAD~1 HEAD >out &&
	grep -c "^[a-z]*/.*\.c  " out >count &&
	echo 2 >expect &&
	test_cmp expect count &&
	grep "^($(( $(wc -l <affected) - 2 )) more; --top N)$" out
'

cat >wrap-slow <<'EOF'
#!/bin/sh
# a compile at the revision with <linux/capability.h> in sched.h is slow;
# logs "+" and "-" around each to count the compiles running at once
echo + >>"$WRAP_LOG"
if grep -q "linux/capability.h" include/linux/sched.h; then sleep 0.4; fi
"$@"
st=$?
echo - >>"$WRAP_LOG"
exit $st
EOF
chmod +x wrap-slow

max_running () {
	awk '/^\+/ { n++; if (n > m) m = n } /^-/ { n-- } END { print m + 0 }' "$1"
}

test_expect_success 'compile times: a slower revision shows, -j and --repeat honoured' '
	n=$(wc -l <affected) &&
	WRAP_LOG=$PWD/slow.log && export WRAP_LOG && rm -f slow.log &&
	snapshot r snap.before &&
	hdrslim measure -q --json --sample 0 -j 3 --repeat 2 --cc-wrapper "$PWD/wrap-slow" \
		r HEAD~1 HEAD >slow.json &&
	snapshot r snap.after &&
	test_cmp snap.before snap.after &&
	test "$(grep -c "^+" slow.log)" = $((2 * 2 * n)) &&
	test "$(max_running slow.log)" = 3 &&
	while read -r f; do
		b=$(field slow.json "$f" seconds_before) && a=$(field slow.json "$f" seconds_after) &&
		awk "BEGIN { if (!($b >= 0.4 && $a < 0.4)) print \"$f $b $a\" }"
	done <affected >wrong &&
	test_must_be_empty wrong &&
	saved=$(grep -o "\"seconds_saved\": [0-9.]*" slow.json | grep -o "[0-9.]*$") &&
	awk "BEGIN { exit !($saved >= 0.3 * $n) }" &&
	grep "\"sampled\": 0," slow.json &&
	no_scratch_left
'

test_expect_success 'a TU added by the change: affected, no lines before' '
	(cd r && git stash -q -u) &&
	printf "#include <linux/sched.h>\nint added;\n" >r/kernel/added.c &&
	(cd r && git add kernel/added.c && git commit -q -m added && git stash pop -q) &&
	snapshot r snap.before &&
	hdrslim measure -q --json r HEAD~1 HEAD >added.json &&
	snapshot r snap.after &&
	test_cmp snap.before snap.after &&
	sed -n "s/^  {\"tu\": \"\([^\"]*\)\".*/\1/p" added.json >got &&
	echo kernel/added.c >expect &&
	test_cmp expect got &&
	test "$(field added.json kernel/added.c lines_before)" = null &&
	at_rev "$(cat rev2)" && (cd truth && git fetch -q ../r HEAD && git checkout -q --detach FETCH_HEAD) &&
	test "$(field added.json kernel/added.c lines_after)" = "$(truth_lines kernel/added.c)"
'

test_expect_success 'no change between the revisions: nothing affected' '
	hdrslim measure r HEAD HEAD >out &&
	grep -x "measure: 0 TUs affected by 0 files changed between HEAD ([0-9a-f]*) and HEAD ([0-9a-f]*)" out &&
	no_scratch_left
'

test_expect_success 'a bad revision: exit 2, one line' '
	snapshot r snap.before &&
	test_expect_code 2 hdrslim measure r HEAD no-such-rev >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	grep "'"'"'no-such-rev'"'"' is not a revision" err &&
	test_expect_code 2 hdrslim measure r no-such-rev HEAD 2>err &&
	test_line_count = 1 err &&
	snapshot r snap.after &&
	test_cmp snap.before snap.after &&
	no_scratch_left
'

test_expect_success 'not a git tree: exit 2, one line' '
	cp -R "$EXAMPLE" plain &&
	test_expect_code 2 hdrslim measure plain HEAD~1 HEAD >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	grep "not in a git work tree" err &&
	test_expect_code 2 hdrslim measure HEAD 2>err &&
	grep "usage" err &&
	no_scratch_left
'


test_expect_success 'a compile_commands.json tree: its commands, pointed at the revisions, decide' '
	rm -rf cdb && mkdir -p cdb/inc && (cd cdb && git init -q && git config user.name t &&
		git config user.email t@t.invalid && git config commit.gpgsign false) &&
	seq 1 60 | sed "s/.*/int big&;/" >cdb/inc/big.h &&
	printf "#ifdef FEATURE\n#include \"big.h\"\n#endif\nint h(void);\n" >cdb/inc/h.h &&
	printf "#include \"h.h\"\nint a(void) { return h(); }\n" >cdb/a.c &&
	printf "int b(void) { return 0; }\n" >cdb/b.c &&
	printf "compile_commands.json\n" >cdb/.gitignore &&
	d=$(cd cdb && pwd -P) &&
	printf "[{\"directory\": \"%s\", \"file\": \"%s/a.c\", \"arguments\": [\"gcc\", \"-DFEATURE\", \"-I%s/inc\", \"-c\", \"a.c\"]},\n {\"directory\": \"%s\", \"file\": \"b.c\", \"command\": \"gcc -DFEATURE -Iinc -c b.c\"}]\n" \
		"$d" "$d" "$d" "$d" >cdb/compile_commands.json &&
	(cd cdb && git add -A && git commit -q -m one) &&
	C1=$(cd cdb && git rev-parse HEAD) &&
	before=$(cd cdb && gcc -E -DFEATURE -Iinc a.c | wc -l) &&
	sed -i 2d cdb/inc/h.h && (cd cdb && git commit -q -a -m two) &&
	after=$(cd cdb && gcc -E -DFEATURE -Iinc a.c | wc -l) &&
	test "$before" -gt "$after" &&
	snapshot cdb snap.cdb.before &&
	hdrslim measure --json cdb "$C1" HEAD >cdb.json &&
	snapshot cdb snap.cdb.after &&
	test_cmp snap.cdb.before snap.cdb.after &&
	no_scratch_left &&
	sed -n "s/^  {\"tu\": \"\([^\"]*\)\".*/\1/p" cdb.json >got &&
	echo a.c >expect && test_cmp expect got &&
	test "$(field cdb.json a.c lines_saved)" = 61 &&
	test "$(field cdb.json a.c gcc_lines_before)" = "$before" &&
	test "$(field cdb.json a.c gcc_lines_after)" = "$after" &&
	test "$(field cdb.json a.c status_before)" = 0 &&
	test "$(field cdb.json a.c status_after)" = 0
'

test_expect_success 'Kbuild: the objects whose .cmd names a changed file, compiled from the revisions' '
	mkkbuild &&
	sed -i "1i #include <linux/bar.h>" kb/include/linux/foo.h &&
	(cd kb && git commit -q -a -m "foo.h includes bar.h") &&
	# uncommitted: the work tree'"'"'s foo.h grows; the revisions do not have it
	for i in $(seq 50); do echo "struct wip$i;"; done >>kb/include/linux/foo.h &&
	snapshot kb snap.before &&
	hdrslim measure -q --json --build kb-build kb HEAD~1 HEAD >kb.json &&
	snapshot kb snap.after &&
	test_cmp snap.before snap.after &&
	sed -n "s/^  {\"tu\": \"\([^\"]*\)\".*/\1/p" kb.json >got &&
	echo kernel/a.c >expect &&
	test_cmp expect got &&
	rm -rf kbt && git clone -q kb kbt && kbt=$(cd kbt && pwd) &&
	for rev in $(cd kb && git rev-parse HEAD~1 HEAD); do
		(cd kbt && git checkout -q --detach $rev) &&
		(cd kbt && cat kernel/a.c include/linux/foo.h include/linux/kconfig.h &&
			if grep -q bar.h include/linux/foo.h; then cat include/linux/bar.h; fi) | wc -l &&
		(cd kb-build && gcc -nostdinc -I"$kbt/include" -I./include -include "$kbt/include/linux/kconfig.h" \
			-D__KERNEL__ -E "$kbt/kernel/a.c" | wc -l) || exit 1
	done >expect &&
	for f in lines_before gcc_lines_before lines_after gcc_lines_after; do
		field kb.json kernel/a.c $f
	done >got &&
	test_cmp expect got &&
	test "$(field kb.json kernel/a.c lines_saved)" = -6 &&
	test "$(field kb.json kernel/a.c status_before)" = 0 &&
	find kb-build -name "*.o" -o -name "*.d" >written &&
	test_must_be_empty written &&
	no_scratch_left
'

cat >wrap-stuck <<'EOF'
#!/bin/sh
# tells the test a compile started, then takes its time
touch "$STARTED"
sleep 20
exec "$@"
EOF
chmod +x wrap-stuck

for sig in INT TERM; do
	test_expect_success "SIG$sig while compiling: the scratch work tree goes, the tree is untouched" '
		snapshot r snap.before &&
		STARTED=$PWD/started.$sig && export STARTED && rm -f "$STARTED" || exit 1
		"$HDRSLIM" measure -q -j 1 --cc-wrapper "$PWD/wrap-stuck" r HEAD~2 HEAD >out 2>err &
		pid=$! &&
		for i in $(seq 100); do test -e "$STARTED" && break; sleep 0.1; done &&
		test -e "$STARTED" &&
		kill -'"$sig"' $pid &&
		st=0 && wait $pid || st=$? &&
		test "$st" -gt 128 &&
		grep "interrupted" err &&
		snapshot r snap.after &&
		test_cmp snap.before snap.after &&
		no_scratch_left
	'
done

test_done
