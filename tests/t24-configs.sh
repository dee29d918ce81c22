#!/bin/bash
# t24-configs.sh: verification in several configurations (--build given
# more than once), the memo of passed compiles (--memo), the order that
# compiles the likeliest failures first and the stop at the first
# regression (--fail-fast), the build-farm path (--cc-wrapper distcc), and
# check and split in one configuration's exact mode (--build once).
#
# The fixture is a miniature Kbuild tree with two output directories
# whose .cmd files are the ones Kbuild writes: the commands differ in the
# arch include directory (x86 or arm64) and in autoconf.h (CONFIG_BAZ set
# or not), and each dependency list is what `gcc -M` says for that
# command.  Ground truth for "compiles" is gcc run with the .cmd command.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v git >/dev/null 2>&1 || skip_all "git not found"
scratch_git_env

# mkconfigs: the tree mc/ and its build directories b-x86/ and b-arm/.
#   include/linux/foo.h includes <asm/foo.h>, <linux/bar.h>, <linux/cfg.h>
#   and <linux/baz.h>; x86's asm/foo.h includes <linux/bar.h> too, arm64's
#   does not; linux/cfg.h includes <linux/baz.h> under CONFIG_BAZ, which
#   only b-x86 sets.  kernel/a.c uses struct bar, kernel/c.c struct baz;
#   kernel/d.c and kernel/e.c include foo.h and use neither.
mkconfigs () {
	rm -rf mc b-x86 b-arm
	mkdir -p mc/include/linux mc/arch/x86/include/asm mc/arch/arm64/include/asm mc/kernel
	touch mc/Kbuild mc/Kconfig
	printf '#include <generated/autoconf.h>\n' >mc/include/linux/kconfig.h
	: >mc/include/linux/compiler_types.h
	: >mc/include/linux/compiler-version.h
	printf '#ifndef FOO_H\n#define FOO_H\n#include <asm/foo.h>\n#include <linux/bar.h>\n#include <linux/cfg.h>\n#include <linux/baz.h>\nstruct foo { int x; };\n#endif\n' >mc/include/linux/foo.h
	printf '#ifndef BAR_H\n#define BAR_H\nstruct bar { int y; };\n#endif\n' >mc/include/linux/bar.h
	printf '#ifndef BAZ_H\n#define BAZ_H\nstruct baz { int z; };\n#endif\n' >mc/include/linux/baz.h
	printf '#ifndef CFG_H\n#define CFG_H\n#ifdef CONFIG_BAZ\n#include <linux/baz.h>\n#endif\n#endif\n' >mc/include/linux/cfg.h
	printf '#include <linux/bar.h>\nstruct asm_foo { int a; };\n' >mc/arch/x86/include/asm/foo.h
	printf 'struct asm_foo { long a; };\n' >mc/arch/arm64/include/asm/foo.h
	printf '#include <linux/foo.h>\nstruct bar a_bar;\n' >mc/kernel/a.c
	printf '#include <linux/foo.h>\nstruct baz c_baz;\n' >mc/kernel/c.c
	printf '#include <linux/foo.h>\nstruct foo d_foo;\n' >mc/kernel/d.c
	printf '#include <linux/foo.h>\nint e;\n' >mc/kernel/e.c
	src=$(cd mc && pwd)
	for cfg in x86:x86_64:1 arm:arm64:0; do
		name=${cfg%%:*}; rest=${cfg#*:}; arch=${rest%%:*}; baz=${rest#*:}
		b=b-$name
		mkdir -p $b/include/generated $b/kernel
		printf "#\n# Automatically generated file; DO NOT EDIT.\n# Linux/%s 6.12.0 Kernel Configuration\n" "$arch" >$b/.config
		if test "$baz" = 1; then
			printf '#define CONFIG_BAZ 1\n' >$b/include/generated/autoconf.h
		else
			: >$b/include/generated/autoconf.h
		fi
		adir=$name; test $name = arm && adir=arm64
		# x86 without IBT runs objtool on each object after compiling it,
		# in the same command; this one fails when it runs
		after=
		if test $name = x86; then
			mkdir -p $b/tools/objtool &&
			printf '#!/bin/sh\necho "objtool: ran on $*" >&2\nexit 1\n' >$b/tools/objtool/objtool &&
			chmod +x $b/tools/objtool/objtool
			after=" ; ./tools/objtool/objtool --orc kernel/\$o.o"
		fi
		for o in a c d e; do
			flags="-nostdinc -I$src/arch/$adir/include -I$src/include -I./include -include $src/include/linux/kconfig.h"
			{
				printf 'savedcmd_kernel/%s.o := gcc -Wp,-MMD,kernel/.%s.o.d %s -c -o kernel/%s.o %s/kernel/%s.c%s\n\n' \
					$o $o "$flags" $o "$src" $o "$(eval echo "\"$after\"")"
				printf 'source_kernel/%s.o := %s/kernel/%s.c\n\n' $o "$src" $o
				printf 'deps_kernel/%s.o := \\\n' $o
				(cd $b && gcc -M $flags "$src/kernel/$o.c") |
					tr ' ' '\n' | grep '^/\|^\./' | grep -v "/kernel/$o.c$" | sed 's/^/  /; s/$/ \\/'
				printf '\nkernel/%s.o: $(deps_kernel/%s.o)\n\n$(deps_kernel/%s.o):\n' $o $o $o
			} >$b/kernel/.$o.o.cmd
		done
	done
	(cd mc && git init -q && git config user.name t && git config user.email t@t.invalid &&
		git add -A && git commit -q -m initial)
}

# gcc_ok BUILD TU: the compile of the .cmd command of TU (up to the
# objtool run) passes (gcc decides)
gcc_ok () {
	(cd "$1" && sh -c "$(sed -n "s/ ; .*//; s/^savedcmd_[^ ]* := //p" kernel/.$2.o.cmd) -fsyntax-only -o /dev/null" 2>/dev/null)
}

test_expect_success 'the fixture compiles in both configurations' '
	mkconfigs &&
	for o in a c d e; do gcc_ok b-x86 $o && gcc_ok b-arm $o || return 1; done
'

test_expect_success 'a command that runs objtool after the compile: only the compile runs' '
	mkconfigs &&
	grep -q "; ./tools/objtool/objtool --orc kernel/a.o$" b-x86/kernel/.a.o.cmd &&
	echo "/* c */" >>mc/include/linux/bar.h &&
	hdrslim verify --build b-x86 mc >out 2>err &&
	grep -x "verify: 4 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	! grep objtool err
'

test_expect_success 'an include only arm64 needed: one configuration passes it, two catch it and name arm64' '
	mkconfigs &&
	sed -i "/linux\/bar.h/d" mc/include/linux/foo.h &&
	gcc_ok b-x86 a && ! gcc_ok b-arm a &&
	hdrslim verify --build b-x86 mc >one 2>err &&
	grep -x "verify: 4 TUs compiled, 0 regressions (and 0 already failing before)" one &&
	test_expect_code 1 hdrslim verify --build b-x86 --build b-arm mc >two 2>err &&
	grep -x "verify: b-x86 (x86_64): 4 TUs compiled, 0 regressions (and 0 already failing before)" two &&
	grep -x "verify: b-arm (arm64): 4 TUs compiled, 1 regression (and 0 already failing before)" two &&
	first=$(cd b-arm && sh -c "$(sed -n "s/ ; .*//; s/^savedcmd_[^ ]* := //p" kernel/.a.o.cmd) -fsyntax-only -o /dev/null" 2>&1 | grep -m1 error:) &&
	grep -xF "kernel/a.c: error: does not compile after the change in b-arm (arm64): $first" two &&
	test $(grep -c "error:" two) = 1
'

test_expect_success 'a CONFIG_ branch: the configuration without CONFIG_BAZ catches it' '
	mkconfigs &&
	sed -i "/linux\/baz.h/d" mc/include/linux/foo.h &&
	gcc_ok b-x86 c && ! gcc_ok b-arm c &&
	test_expect_code 1 hdrslim verify --json --build b-x86 --build b-arm mc >out.json &&
	python3 -c "
import json, sys
d = json.load(open(\"out.json\"))
assert d[\"regressions\"] == 1, d
reg = [r for r in d[\"results\"] if r[\"status\"] == \"regression\"]
assert [(r[\"tu\"], r[\"configuration\"]) for r in reg] == [(\"kernel/c.c\", \"b-arm (arm64)\")], reg
names = [(c[\"name\"], c[\"tus\"], c[\"regressions\"]) for c in d[\"configurations\"]]
assert names == [(\"b-x86 (x86_64)\", 4, 0), (\"b-arm (arm64)\", 4, 1)], names
"
'

test_expect_success 'the work tree and the build directories are as they were' '
	mkconfigs &&
	sed -i "/linux\/bar.h/d" mc/include/linux/foo.h &&
	snapshot mc s1 && snapshot b-arm s2 &&
	test_expect_code 1 hdrslim verify --build b-x86 --build b-arm mc >out 2>err &&
	snapshot mc s1b && snapshot b-arm s2b &&
	test_cmp s1 s1b && test_cmp s2 s2b
'

test_expect_success 'series refuses a step that breaks only arm64, and keeps it with one configuration' '
	mkconfigs &&
	printf "drop include/linux/foo.h <linux/bar.h>\n" >plan &&
	(cd mc && git checkout -q -b work) &&
	test_expect_code 1 hdrslim series --verify --build b-x86 --build b-arm mc plan >out 2>err &&
	grep "kernel/a.c (in b-arm (arm64))" out err &&
	git -C mc diff --quiet && test $(git -C mc rev-list --count HEAD) = 1 &&
	hdrslim series --verify --branch one-config --build b-x86 mc plan >out 2>err &&
	test $(git -C mc rev-list --count HEAD) = 2 &&
	! grep -q "linux/bar.h" mc/include/linux/foo.h &&
	# the step line says what was compiled, and how long it took; the
	# commit keeps only the TUs (the objects whose .cmd names foo.h)
	n=$(grep -l "include/linux/foo.h" b-x86/kernel/.*.o.cmd | wc -l) &&
	test $n -gt 0 &&
	grep -E "^      verified: $n TUs, $n compiled, 0 proven, [0-9]+[.][0-9] s$" out &&
	git -C mc log -1 --format=%B | grep -x "Verified: $n TUs compiled" &&
	! git -C mc log -1 --format=%B | grep -q " s$"
'

test_expect_success '--build twice is refused where one configuration is read' '
	mkconfigs &&
	test_expect_code 2 hdrslim deps --build b-x86 --build b-arm mc kernel/a.c 2>err &&
	grep "build given twice" err
'

# ---- the memo ----

test_expect_success 'memo: a split with a back-include where the block was: every TU proven, none compiled' '
	mkconfigs &&
	echo "/* a comment: the tokens stay */" >>mc/include/linux/bar.h &&
	hdrslim verify --memo --build b-x86 mc >out 2>err &&
	grep -x "verify: 4 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	git -C mc commit -q -am "comment" &&
	mkdir -p mc/include/linux/foo &&
	printf "#ifndef FOO_T_H\n#define FOO_T_H\nstruct foo { int x; };\n#endif\n" >mc/include/linux/foo/types.h &&
	sed -i "s|^struct foo { int x; };|#include <linux/foo/types.h>|" mc/include/linux/foo.h &&
	for o in a c d e; do gcc_ok b-x86 $o || return 1; done &&
	hdrslim verify --memo --build b-x86 mc >out 2>err &&
	grep -x "verify: 4 TUs: 0 compiled, 4 proven by an identical earlier compile, 0 skipped, 0 regressions (and 0 already failing before)" out
'

test_expect_success 'memo: a change of the tokens is compiled, and a failure is the compiler'"'"'s' '
	mkconfigs &&
	hdrslim verify --memo --build b-x86 mc >/dev/null 2>&1 &&
	echo "/* c */" >>mc/include/linux/bar.h &&
	hdrslim verify --memo --build b-x86 mc >out 2>&1 &&
	git -C mc commit -q -am "comment" &&
	sed -i "s/int y;/int y; long w;/" mc/include/linux/bar.h &&
	hdrslim verify --memo --build b-x86 mc >out 2>err &&
	grep -x "verify: 4 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	git -C mc checkout -q -- . &&
	sed -i "s/int y;/undefined_t y;/" mc/include/linux/bar.h &&
	test_expect_code 1 hdrslim verify --memo --build b-x86 mc >out 2>err &&
	grep -x "verify: 4 TUs compiled, 4 regressions (and 0 already failing before)" out &&
	first=$(cd b-x86 && sh -c "$(sed -n "s/ ; .*//; s/^savedcmd_[^ ]* := //p" kernel/.a.o.cmd) -fsyntax-only -o /dev/null" 2>&1 | grep -m1 error:) &&
	grep -xF "kernel/a.c: error: does not compile after the change: $first" out
'

test_expect_success 'memo: another compiler proves nothing, and neither does another configuration' '
	mkconfigs &&
	echo "/* c */" >>mc/include/linux/bar.h &&
	hdrslim verify --memo --build b-x86 mc >/dev/null 2>&1 &&
	git -C mc commit -q -am c1 &&
	echo "/* d */" >>mc/include/linux/bar.h &&
	printf "#!/bin/sh\nexec \"\$@\"\n" >wrap && chmod +x wrap &&
	hdrslim verify --memo --cc-wrapper "$PWD/wrap" --build b-x86 mc >out 2>err &&
	grep -x "verify: 4 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	hdrslim verify --memo --build b-arm mc >out 2>err &&
	grep -x "verify: 4 TUs compiled, 0 regressions (and 0 already failing before)" out &&
	hdrslim verify --memo --build b-x86 --build b-arm mc >out 2>err &&
	grep -x "verify: b-x86 (x86_64): 4 TUs: 0 compiled, 4 proven by an identical earlier compile, 0 skipped, 0 regressions (and 0 already failing before)" out
'

# ---- order and fail-fast ----

test_expect_success 'the TUs that name what the change touches compile first; --fail-fast stops at the first regression' '
	mkconfigs &&
	for i in 1 2 3 4 5 6 7 8; do
		printf "#include <linux/foo.h>\nint n$i;\n" >mc/kernel/n$i.c || return 1
	done &&
	printf "#include <linux/foo.h>\nstruct bar z_bar;\n" >mc/kernel/z.c &&
	git -C mc add -A && git -C mc commit -q -m more &&
	sed -i "/linux\/bar.h/d" mc/include/linux/foo.h mc/arch/x86/include/asm/foo.h &&
	rm -f mc/compile_commands.json &&
	printf "%s\n" "-Iarch/x86/include" "-Iinclude" >mc/compile_flags.txt &&
	git -C mc add compile_flags.txt && git -C mc commit -q -m flags &&
	test_expect_code 1 hdrslim verify --no-kernel -j1 --json mc >all.json 2>err &&
	test_expect_code 1 hdrslim verify --no-kernel -j1 --fail-fast --json mc >ff.json 2>err &&
	python3 -c "
import json
a = json.load(open(\"all.json\")); f = json.load(open(\"ff.json\"))
order = [r[\"tu\"] for r in a[\"results\"]]
# a.c and z.c name struct bar: they come first
assert set(order[:2]) == {\"kernel/a.c\", \"kernel/z.c\"}, order
assert a[\"regressions\"] == 2 and a[\"compiled\"] == 13, a
assert f[\"regressions\"] == 1 and f[\"compiled\"] == 1 and f[\"skipped\"] == 12, f
assert f[\"results\"][0][\"tu\"] == \"kernel/a.c\" and f[\"results\"][0][\"status\"] == \"regression\"
"
'

# ---- distcc ----

if command -v distccd >/dev/null 2>&1 && command -v distcc >/dev/null 2>&1; then
	test_set_prereq DISTCC
fi

test_expect_success DISTCC '--cc-wrapper distcc: the compiles run on a real distccd on localhost' '
	mkconfigs &&
	port=$((20000 + $$ % 10000)) || return 1
	# the daemon runs as an unprivileged user: its scratch files go to /tmp
	TMPDIR=/tmp distccd --daemon --no-detach --allow 127.0.0.1 --listen 127.0.0.1 --port $port \
		--log-stderr --log-level info --jobs 2 2>distccd.log &
	dpid=$! &&
	for i in $(seq 50); do grep -q "listening" distccd.log 2>/dev/null && break; sleep 0.1; done &&
	sed -i "/linux\/bar.h/d" mc/include/linux/foo.h &&
	code=0
	DISTCC_HOSTS="127.0.0.1:$port" DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 \
		hdrslim verify --cc-wrapper distcc --build b-x86 --build b-arm mc >out 2>err || code=$?
	pkill -P $dpid 2>/dev/null; kill $dpid; wait $dpid 2>/dev/null || :
	test $code = 1 &&
	grep -x "verify: b-arm (arm64): 4 TUs compiled, 1 regression (and 0 already failing before)" out &&
	# every compile went to the daemon: after, 7 pass and a.c fails in
	# arm64; before, a.c passes
	test $(grep -c "COMPILE_OK" distccd.log) = 8 &&
	test $(grep -c "COMPILE_ERROR" distccd.log) = 1
'

# carry_out BUILD JSON: applies each removal of JSON (check --json) in
# include/linux/foo.h alone, with its fallout's includes put first in
# each fallout file, and compiles every TU with BUILD's commands; prints
# "LINE ok" or "LINE FAIL TU" per finding and restores the tree.
carry_out () {
	python3 - "$2" >findings.txt <<'PY'
import json, sys
for f in json.load(open(sys.argv[1])):
    if f["file"] == "include/linux/foo.h" and f["kind"] in ("unused", "redundant"):
        print(f["line"], " ".join("%s:%s" % (o["file"], a) for o in f["fallout"] for a in o["add"]))
PY
	while read -r line adds; do
		sed -i "${line}d" mc/include/linux/foo.h
		for fa in $adds; do
			sed -i "1i #include ${fa#*:}" "mc/${fa%%:*}"
		done
		res="$line ok"
		for o in a c d e; do
			gcc_ok "$1" $o || { res="$line FAIL $o"; break; }
		done
		echo "$res"
		git -C mc checkout -q -- .
	done <findings.txt
}

test_expect_success 'check --build (one configuration, exact): the includers that rely on a line are its fallout, and gcc agrees' '
	mkconfigs &&
	test_expect_code 1 hdrslim check --json --build b-arm mc >arm.json &&
	test_expect_code 1 hdrslim check --json --build b-x86 mc >x86.json &&
	python3 -c "
import json
def fallout(name, line):
    for f in json.load(open(name)):
        if f[\"file\"] == \"include/linux/foo.h\" and f[\"line\"] == line:
            return [(o[\"file\"], o[\"add\"]) for o in f[\"fallout\"]]
    return None
# arm64: asm/foo.h does not bring bar.h, and without CONFIG_BAZ cfg.h does
# not bring baz.h: a.c and c.c rely on foo.h for them
assert fallout(\"arm.json\", 4) == [(\"kernel/a.c\", [\"<linux/bar.h>\"])], fallout(\"arm.json\", 4)
assert fallout(\"arm.json\", 6) == [(\"kernel/c.c\", [\"<linux/baz.h>\"])], fallout(\"arm.json\", 6)
# x86_64: both come another way
assert fallout(\"x86.json\", 4) == [], fallout(\"x86.json\", 4)
assert fallout(\"x86.json\", 6) == [], fallout(\"x86.json\", 6)
" &&
	carry_out b-arm arm.json >arm.res && carry_out b-x86 x86.json >x86.res &&
	cat arm.res x86.res &&
	test -s arm.res && ! grep FAIL arm.res x86.res &&
	# and the fallout is needed: without it gcc refuses
	sed -i "/linux\/bar.h/d" mc/include/linux/foo.h && ! gcc_ok b-arm a
'

test_expect_success 'split --build: the TUs that include a header are the objects that configuration compiles' '
	mkconfigs &&
	hdrslim split --build b-arm mc include/linux/foo.h >out &&
	grep "^include/linux/foo.h: .*, included by 4 TUs$" out &&
	rm b-arm/kernel/.e.o.cmd &&
	hdrslim split --build b-arm mc include/linux/foo.h >out &&
	grep "^include/linux/foo.h: .*, included by 3 TUs$" out &&
	hdrslim split mc -Imc/include include/linux/foo.h >out &&
	grep "^include/linux/foo.h: .*, included by 4 TUs$" out
'

test_done
