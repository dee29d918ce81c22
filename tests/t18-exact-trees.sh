#!/bin/bash
# t18-exact-trees.sh: exact-mode `check` (the configuration from a
# compile_commands.json) on trees whose headers reach system headers no
# other walk met before: it ends, reports no sanitizer error (under `make
# asan`), and what it reports gcc accepts.
#
# The class of bug: exact mode reads closures as it walks them, so a file
# first met by a check's own walk (here <pthread.h>, reached only through
# g.h) used to be missing from the symbol index built before; a finding
# whose leaving set held it wrote past the index's tables.  And without a
# graph, exact mode knew no includers at all: a header's finding had no
# fallout.  The fixed tree below has both; the generated ones vary the
# shape (conditional includes, several configurations, system headers).

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not found"

# no_crash LOG: the run left no sanitizer or internal-error report
no_crash () {
	! grep -q "AddressSanitizer\|runtime error\|LeakSanitizer\|hdrslim: BUG" "$1"
}

mkdir -p fx/inc
cat >fx/inc/h.h <<'EOF'
#ifndef H_H
#define H_H
#include "g.h"
int h_fn(void);
#endif
EOF
cat >fx/inc/g.h <<'EOF'
#ifndef G_H
#define G_H
#include <pthread.h>
#include <stdio.h>
static inline int g_fn(void) { return (int)sizeof(pthread_mutex_t); }
#endif
EOF
cat >fx/a.c <<'EOF'
#include "h.h"
int a(void);
int a(void) { return g_fn() + h_fn(); }
EOF
cat >fx/b.c <<'EOF'
#include "h.h"
int b(void);
int b(void) { return h_fn(); }
EOF
cat >fx/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/fx", "file": "a.c", "arguments": ["gcc", "-Iinc", "-c", "a.c"]},
 {"directory": "$TRASH_DIRECTORY/fx", "file": "b.c", "arguments": ["gcc", "-Iinc", "-DB", "-c", "b.c"]}]
EOF

test_expect_success 'a header reaching a system header first met by the walk: no crash, fallout named' '
	test_expect_code 1 hdrslim check --json fx >out 2>err &&
	no_crash err &&
	python3 - out <<-\EOF
	import json, sys
	d = {(f["file"], f["line"]): f for f in json.load(open(sys.argv[1]))}
	h = d[("inc/h.h", 3)]
	assert h["kind"] == "unused", h
	assert [(x["file"], x["add"]) for x in h["fallout"]] == [("a.c", ["<g.h>"])], h["fallout"]
	EOF
'

test_expect_success 'every header check suggests adding can be included (no libc bits/ header)' '
	python3 -c "
import json
for f in json.load(open(\"out\")):
    for h in f[\"suggestion\"][\"add\"] + [a for x in f[\"fallout\"] for a in x[\"add\"]]:
        print(h)" | sort -u >adds &&
	test -s adds &&
	while read -r h; do
		echo "#include $h" | gcc -Ifx/inc -x c -fsyntax-only - || return 1
	done <adds
'

test_expect_success 'every removal check reports, carried out with its fallout, compiles (gcc decides)' '
	# each finding with a line to remove applied alone on a copy: the
	# line goes, its suggested includes and its fallout'"'"'s are added
	python3 - out <<-\EOF
	import json, os, shutil, subprocess, sys
	findings = [f for f in json.load(open(sys.argv[1])) if f["suggestion"]["remove"]]
	assert findings
	for i, f in enumerate(findings):
	    d = "apply%d" % i
	    shutil.copytree("fx", d)
	    def edit(rel, drop_line, adds):
	        path = os.path.join(d, rel)
	        lines = open(path).read().split("\n")
	        if drop_line:
	            lines[drop_line - 1] = ""
	        lines[0:0] = ["#include %s" % a for a in adds]
	        open(path, "w").write("\n".join(lines))
	    edit(f["file"], f["line"], f["suggestion"]["add"])
	    for fo in f["fallout"]:
	        edit(fo["file"], 0, fo["add"])
	    for tu, flags in (("a.c", []), ("b.c", ["-DB"])):
	        r = subprocess.run(["gcc", "-Iinc", *flags, "-Werror=implicit-function-declaration",
	                            "-fsyntax-only", tu], cwd=d, capture_output=True, text=True)
	        assert r.returncode == 0, (f, tu, r.stderr)
	EOF
'

# Generated trees: headers including each other and system headers under
# conditions, TUs compiled with different -D sets.
cat >gen.py <<'EOF'
import json, os, random, sys
seed, out = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(seed)
system = ["<pthread.h>", "<stdio.h>", "<string.h>", "<stdlib.h>", "<signal.h>", "<time.h>"]
nh = rnd.randint(3, 9)
os.makedirs(os.path.join(out, "inc"), exist_ok=True)
for i in range(nh):
    lines = ["#ifndef H%d_H" % i, "#define H%d_H" % i]
    for j in range(rnd.randint(0, 3)):
        inc = '"h%d.h"' % rnd.randrange(nh) if rnd.random() < 0.6 else rnd.choice(system)
        if rnd.random() < 0.3:
            lines += ["#ifdef CFG%d" % rnd.randrange(3), "#include %s" % inc, "#endif"]
        else:
            lines.append("#include %s" % inc)
    lines.append("struct s%d { int x; };" % i)
    lines.append("static inline int f%d(void) { return %d; }" % (i, i))
    lines.append("#endif")
    open(os.path.join(out, "inc", "h%d.h" % i), "w").write("\n".join(lines) + "\n")
db = []
for t in range(rnd.randint(2, 6)):
    body = ['#include "h%d.h"' % rnd.randrange(nh) for _ in range(rnd.randint(1, 4))]
    uses = rnd.sample(range(nh), rnd.randint(0, min(3, nh)))
    body.append("int t%d(void);" % t)
    body.append("int t%d(void) { return 0%s; }" % (t, "".join(" + f%d()" % u for u in uses)))
    open(os.path.join(out, "t%d.c" % t), "w").write("\n".join(body) + "\n")
    flags = ["-DCFG%d" % k for k in range(3) if rnd.random() < 0.5]
    db.append({"directory": os.path.abspath(out), "file": "t%d.c" % t,
               "arguments": ["gcc", "-Iinc"] + flags + ["-c", "t%d.c" % t]})
json.dump(db, open(os.path.join(out, "compile_commands.json"), "w"))
EOF

test_expect_success 'twenty generated trees: exact-mode check ends, no sanitizer report' '
	for seed in $(seq 1 20); do
		python3 gen.py $seed g$seed || return 1
		rc=0
		timeout 60 "$HDRSLIM" check --json g$seed >g$seed.out 2>g$seed.err || rc=$?
		test $rc -le 1 || { echo "seed $seed: exit $rc"; cat g$seed.err; return 1; }
		no_crash g$seed.err || { echo "seed $seed"; cat g$seed.err; return 1; }
		python3 -c "import json,sys; json.load(open(sys.argv[1]))" g$seed.out || return 1
	done
'


# A C++-ready header (curl's, zlib's): its prototypes sit in an
# extern "C" { ... } block under #ifdef __cplusplus.
mkdir -p cx/inc
cat >cx/inc/api.h <<'EOF'
#ifndef API_H
#define API_H
#ifdef __cplusplus
extern "C" {
#endif
#define API_EXTERN
API_EXTERN int api_version(void);
struct api_handle { int fd; };
#ifdef __cplusplus
}
#endif
#endif
EOF
cat >cx/use.c <<'EOF'
#include <api.h>
int use(void);
int use(void) { struct api_handle h = {0}; return api_version() + h.fd; }
EOF
cat >cx/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/cx", "file": "use.c", "arguments": ["gcc", "-Iinc", "-c", "use.c"]}]
EOF

test_expect_success 'extern "C" { ... }: what is inside is declared at file scope' '
	hdrslim symbols cx/inc/api.h >syms &&
	grep -q "^provide 7 function api_version$" syms &&
	grep -q "^provide 8 struct api_handle$" syms &&
	{ hdrslim check cx >cxout 2>&1 || :; } &&
	! grep -q "use.c:1: unused" cxout &&
	! (cd cx && sed 1d use.c >u.c && gcc -Iinc -Werror=implicit-function-declaration -fsyntax-only u.c 2>/dev/null)
'

# glibc's <string.h> declares strchr() twice: for C++ inside extern "C++"
# { ... } under #ifdef __CORRECT_ISO_CPP_STRING_H_PROTO, for C in its
# #else.  The linkage block's braces are no braces of the #if group, so
# the #else branch is parsed (it was only read for uses: in exact mode,
# where the C++ branch is dead, <string.h> then provided no strchr()).
cat >cx/inc/twice.h <<'EOF'
#ifndef TWICE_H
#define TWICE_H
#ifdef __cplusplus
extern "C++"
{
extern char *find_char (char *s, int c);
}
#else
extern char *find_char (const char *s, int c);
#endif
#endif
EOF
cat >cx/find.c <<'EOF'
#include <string.h>
#include <twice.h>
char *find(char *q);
char *find(char *q) { return strchr(q, 44) ? strchr(q, 44) : find_char(q, 44); }
EOF
cat >cx/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/cx", "file": "use.c", "arguments": ["gcc", "-Iinc", "-c", "use.c"]},
 {"directory": "$TRASH_DIRECTORY/cx", "file": "find.c", "arguments": ["gcc", "-Iinc", "-std=c11", "-c", "find.c"]}]
EOF

test_expect_success 'extern "C++" { ... } under #ifdef: its #else branch declares too' '
	hdrslim symbols cx/inc/twice.h >syms &&
	grep -q "^provide 6 function find_char$" syms &&
	grep -q "^provide 9 function find_char$" syms &&
	(cd cx && gcc -Iinc -std=c11 -Werror -fsyntax-only find.c) &&
	{ hdrslim check cx >cxout 2>&1 || :; } &&
	! grep -q "find.c:1: unused\|find.c:2: unused" cxout
'

# Headers no entry compiles on this platform (git's compat/win32.h, curl's
# lib/config-win32.h): exact mode reads them on their own with a guessed
# command, and what they include that is not found is not the tree's
# error.  A TU that really includes a missing header still is.
mkdir -p wx/compat
cat >wx/compat/win32.h <<'EOF'
#ifndef WIN32_H
#define WIN32_H
#include <windows.h>
#ifndef _MSC_VER
#error This configuration requires MSVC
#endif
int win_fn(void);
#endif
EOF
cat >wx/main.c <<'EOF'
#include <stdio.h>
int main(void) { puts("x"); return 0; }
EOF
cat >wx/broken.c <<'EOF'
#include "not-there.h"
int broken(void);
EOF
cat >wx/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/wx", "file": "main.c", "arguments": ["gcc", "-c", "main.c"]}]
EOF

test_expect_success 'a header no entry includes: its missing includes and #error are not errors of the tree' '
	! (cd wx && gcc -fsyntax-only compat/win32.h 2>/dev/null) &&
	hdrslim check wx >out 2>err &&
	! grep -q "windows.h\|MSVC" err &&
	grep -q "^hdrslim: note: the errors of 2 files that no compile_commands.json entry compiles or includes" err &&
	test_must_be_empty out &&
	hdrslim check -q wx >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'an entry that includes a missing header is still an error' '
	cat >wx/compile_commands.json <<-EOF &&
	[{"directory": "$TRASH_DIRECTORY/wx", "file": "main.c", "arguments": ["gcc", "-c", "main.c"]},
	 {"directory": "$TRASH_DIRECTORY/wx", "file": "broken.c", "arguments": ["gcc", "-c", "broken.c"]}]
	EOF
	! (cd wx && gcc -fsyntax-only broken.c 2>/dev/null) &&
	test_expect_code 1 hdrslim check wx >out 2>err &&
	grep -q "^broken.c:1: error: not-there.h: No such file or directory" err &&
	! grep -q "windows.h" err
'

# What the corpus found (tmux, redis): exact mode must read a header as
# the configuration compiles it.  Each tree below has one include that
# looks removable to a reading of every branch, and gcc refuses it gone.
#
# 1. A fallback declaration under a false #ifndef (tmux's compat.h has
#    strsep() under #ifndef HAVE_STRSEP) provides nothing: <string.h> is
#    needed; the same for the TU's own definition under a false #ifndef.
# 2. A function declared by a macro invoked with its name, in a header
#    read twice (glibc's __MATHCALL (floor,, ...) in bits/mathcalls.h).
# 3. A header that only defines a feature-test macro which a later
#    system header tests (redis's fmacros.h: _GNU_SOURCE for strchrnul).
# 4. What the TU defines itself below its use (redis's hiredis net.c
#    calls redisCheckConnectDone() above its definition): the header's
#    declaration is what the use compiles with.
# 5. What a branch not taken tests is a use (curl's inet_ntop.c is all
#    #ifndef HAVE_INET_NTOP, which "curl_setup.h" defines).
# 6. A text read more than once, one reading skipping what another has:
#    <stdio.h> reads <stddef.h> under __need_size_t, which skips
#    offsetof(); only the TU's own #include <stddef.h> reads it whole
#    (curl's curl_addrinfo.c).  The other way round too: the TU's own
#    <stdarg.h> first, then <stdio.h>'s under __need___va_list, which
#    has no va_start() (redis's setproctitle.c).  But size_t, which
#    <sys/types.h>'s reading of <stddef.h> has and <stdlib.h>'s skips
#    under its own guard, comes with <stdlib.h> alone: that line goes.
mkdir -p dx/inc
cat >dx/inc/compat.h <<'EOF'
#ifndef COMPAT_H
#define COMPAT_H
#ifndef HAVE_STRSEP
char *strsep(char **, const char *);
#endif
#endif
EOF
cat >dx/inc/app.h <<'EOF'
#ifndef APP_H
#define APP_H
#include "compat.h"
int app_fn(void);
#endif
EOF
cat >dx/fallback.c <<'EOF'
#include <string.h>
#include <app.h>
int fallback(char **p);
int fallback(char **p) { return app_fn() + (strsep(p, ",") != 0); }
EOF
cat >dx/own.c <<'EOF'
#include <string.h>
int own(char *s);
#ifndef HAVE_STRCHRNUL
char *strchrnul(const char *s, int c) { while (*s && *s != c) s++; return (char *)s; }
#endif
int own(char *s) { return *strchrnul(s, 1); }
EOF
cat >dx/inc/calls.h <<'EOF'
__CALLDECL(half);
EOF
cat >dx/inc/mathish.h <<'EOF'
#ifndef MATHISH_H
#define MATHISH_H
#define __CALLDECL(name) extern double name(double)
#include "calls.h"
#undef __CALLDECL
#define __CALLDECL(name) extern float name##f(float)
#include "calls.h"
#undef __CALLDECL
#endif
EOF
cat >dx/pasted.c <<'EOF'
#include <mathish.h>
double pasted(double x);
double pasted(double x) { return half(x); }
EOF
cat >dx/fmacros.h <<'EOF'
#ifndef FMACROS_H
#define FMACROS_H
#define _GNU_SOURCE
#endif
EOF
cat >dx/feature.c <<'EOF'
#include "fmacros.h"
#include <string.h>
char *feature(char *s);
char *feature(char *s) { return strchrnul(s, 1); }
EOF
cat >dx/inc/done.h <<'EOF'
#ifndef DONE_H
#define DONE_H
#define DONE(c) ((c) + 1)
#endif
EOF
cat >dx/below.c <<'EOF'
#include <done.h>
int below(int c);
int below(int c) { return DONE(c); }
#define DONE(c) ((c) + 1)
EOF
cat >dx/inc/setup.h <<'EOF'
#ifndef SETUP_H
#define SETUP_H
#include <stdio.h>
int setup_fn(void);
#endif
EOF
cat >dx/partial.c <<'EOF'
#include <setup.h>
#include <stddef.h>
struct pair { int a, b; };
int partial(void);
int partial(void) { return setup_fn() + (int)offsetof(struct pair, b); }
EOF
cat >dx/varargs.c <<'EOF'
#include <stdarg.h>
#include <stdio.h>
int varargs(int n, ...);
int varargs(int n, ...) { va_list ap; va_start(ap, n); int x = va_arg(ap, int); va_end(ap); return x + (int)sizeof(FILE *); }
EOF
cat >dx/guarded.c <<'EOF'
#include <sys/types.h>
#include <stdlib.h>
size_t guarded(void);
size_t guarded(void) { return (size_t)atoi("1"); }
EOF
cat >dx/inc/have.h <<'EOF'
#ifndef HAVE_H
#define HAVE_H
#define HAVE_NTOP 1
#endif
EOF
cat >dx/ntop.c <<'EOF'
#include <have.h>
#ifndef HAVE_NTOP
int ntop(void) { return undefined_here; }
#endif
EOF
cat >dx/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/dx", "file": "ntop.c", "arguments": ["gcc", "-Iinc", "-c", "ntop.c"]},
 {"directory": "$TRASH_DIRECTORY/dx", "file": "varargs.c", "arguments": ["gcc", "-c", "varargs.c"]},
 {"directory": "$TRASH_DIRECTORY/dx", "file": "guarded.c", "arguments": ["gcc", "-c", "guarded.c"]},
 {"directory": "$TRASH_DIRECTORY/dx", "file": "partial.c", "arguments": ["gcc", "-Iinc", "-c", "partial.c"]},
 {"directory": "$TRASH_DIRECTORY/dx", "file": "below.c", "arguments": ["gcc", "-Iinc", "-c", "below.c"]},
 {"directory": "$TRASH_DIRECTORY/dx", "file": "fallback.c", "arguments": ["gcc", "-Iinc", "-DHAVE_STRSEP", "-c", "fallback.c"]},
 {"directory": "$TRASH_DIRECTORY/dx", "file": "own.c", "arguments": ["gcc", "-D_GNU_SOURCE", "-DHAVE_STRCHRNUL", "-c", "own.c"]},
 {"directory": "$TRASH_DIRECTORY/dx", "file": "pasted.c", "arguments": ["gcc", "-Iinc", "-c", "pasted.c"]},
 {"directory": "$TRASH_DIRECTORY/dx", "file": "feature.c", "arguments": ["gcc", "-c", "feature.c"]}]
EOF

# gcc_without TU LINE FLAGS...: the TU with line LINE blanked fails to
# compile (an implicit declaration is an error), and compiles as it is
gcc_without () {
	tu=$1 line=$2
	shift 2
	(cd dx && gcc "$@" -Werror=implicit-function-declaration -fsyntax-only "$tu") &&
	sed "${line}s/.*//" "dx/$tu" >"dx/without-$tu" &&
	! (cd dx && gcc "$@" -Werror=implicit-function-declaration -fsyntax-only "without-$tu" 2>/dev/null)
}

test_expect_success 'the compiler needs each include the dead-branch trees have (but one)' '
	gcc_without fallback.c 1 -Iinc -DHAVE_STRSEP &&
	gcc_without own.c 1 -D_GNU_SOURCE -DHAVE_STRCHRNUL &&
	gcc_without pasted.c 1 -Iinc &&
	gcc_without feature.c 1 &&
	gcc_without below.c 1 -Iinc &&
	gcc_without partial.c 2 -Iinc &&
	gcc_without varargs.c 1 &&
	gcc_without ntop.c 1 -Iinc &&
	sed 1d dx/guarded.c >dx/without-guarded.c &&
	gcc -Werror -fsyntax-only dx/without-guarded.c &&
	rm dx/without-*
'

test_expect_success 'exact mode: a declaration in a branch not taken, or below its use, provides nothing' '
	hdrslim check --json dx >out 2>err || :
	no_crash err &&
	python3 - out <<-\EOF
	import json, sys
	found = {(f["file"], f["line"]): f["kind"] for f in json.load(open(sys.argv[1]))}
	for key in [("fallback.c", 1), ("own.c", 1), ("pasted.c", 1), ("feature.c", 1), ("below.c", 1),
	            ("partial.c", 1), ("partial.c", 2), ("varargs.c", 1), ("ntop.c", 1)]:
	    assert key not in found, (key, found)
	assert found.get(("guarded.c", 1)) in ("unused", "redundant"), found
	EOF
'

test_expect_success 'union mode too: a name a macro declares as it is spelled, a definition below its use' '
	hdrslim check --union -Iinc --json dx >out 2>err || :
	python3 - out <<-\EOF
	import json, sys
	found = {(f["file"], f["line"]): f["kind"] for f in json.load(open(sys.argv[1]))}
	assert ("pasted.c", 1) not in found, found
	assert ("below.c", 1) not in found, found
	EOF
'

# A header next to its includer, in a build whose command also puts the
# includer's directory on the search chain (a Kbuild O= build adds -I
# $(srctree)/mm for mm/ objects): fallout spells it "vma.h", which
# resolves in a build without that -I too.
mkdir -p sx/mm
cat >sx/mm/vma.h <<'EOF'
#ifndef VMA_H
#define VMA_H
int vma_fn(void);
#endif
EOF
cat >sx/mm/internal.h <<'EOF'
#ifndef INTERNAL_H
#define INTERNAL_H
#include "vma.h"
int internal_fn(void);
#endif
EOF
cat >sx/mm/mmap.c <<'EOF'
#include "internal.h"
int mmap_fn(void);
int mmap_fn(void) { return vma_fn() + internal_fn(); }
EOF
cat >sx/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/sx", "file": "mm/mmap.c", "arguments": ["gcc", "-Imm", "-c", "mm/mmap.c"]}]
EOF

test_expect_success 'fallout next to the includer is spelled "x.h", not <x.h>' '
	test_expect_code 1 hdrslim check --json sx >out 2>err &&
	python3 - out <<-\EOF
	import json, sys
	d = {(f["file"], f["line"]): f for f in json.load(open(sys.argv[1]))}
	f = d[("mm/internal.h", 3)]
	assert [(x["file"], x["add"]) for x in f["fallout"]] == [("mm/mmap.c", ["\"vma.h\""])], f["fallout"]
	EOF
	sed -i "3s/.*//" sx/mm/internal.h &&
	sed -i "1i #include \"vma.h\"" sx/mm/mmap.c &&
	gcc -Werror=implicit-function-declaration -fsyntax-only sx/mm/mmap.c
'

# A header that needs a name before the root's own first use of it: curl's
# tool_cb_prg.c includes "tool_cfgable.h", then "tool_cb_prg.h" (whose
# prototype names struct OperationConfig), then "tool_operate.h" (which
# brings tool_cfgable.h again).  The first line is not redundant: without
# it the prototype declares a struct of its own and the definition
# conflicts with it.
mkdir -p ox
cat >ox/cfg.h <<'EOF'
#ifndef CFG_H
#define CFG_H
struct Cfg { int x; };
#endif
EOF
cat >ox/prg.h <<'EOF'
#ifndef PRG_H
#define PRG_H
void prginit(struct Cfg *c);
#endif
EOF
cat >ox/op.h <<'EOF'
#ifndef OP_H
#define OP_H
#include "cfg.h"
int op(void);
#endif
EOF
cat >ox/a.c <<'EOF'
#include "cfg.h"
#include "prg.h"
#include "op.h"
void prginit(struct Cfg *c) { c->x = op(); }
EOF
cat >ox/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/ox", "file": "a.c", "arguments": ["gcc", "-c", "a.c"]}]
EOF

test_expect_success 'an include a header needs before the root uses the name stays (both modes)' '
	(cd ox && gcc -Werror -fsyntax-only a.c) &&
	sed 1d ox/a.c >ox/without.c &&
	! (cd ox && gcc -fsyntax-only without.c 2>/dev/null) &&
	rm ox/without.c &&
	for mode in --exact --union; do
		hdrslim check $mode --json ox >out 2>err || :
		no_crash err &&
		python3 - out <<-\EOF || return 1
		import json, sys
		found = {(f["file"], f["line"]): f["kind"] for f in json.load(open(sys.argv[1]))}
		assert ("a.c", 1) not in found, found
		EOF
	done
'

# A replacement's includes in an order they compile in: the one the TU
# read them in (git's xemit.c: "xdiffi.h" names mmfile_t from "xdiff.h").
mkdir -p rx
cat >rx/a.h <<'EOF'
#ifndef A_H
#define A_H
typedef struct { int v; } T;
#endif
EOF
cat >rx/b.h <<'EOF'
#ifndef B_H
#define B_H
typedef struct { T t; } U;
int bfn(U *u);
#endif
EOF
cat >rx/c.h <<'EOF'
#ifndef C_H
#define C_H
int cfn(U *u);
#endif
EOF
cat >rx/all.h <<'EOF'
#ifndef ALL_H
#define ALL_H
#include "a.h"
#include "b.h"
#include "c.h"
#endif
EOF
cat >rx/use.c <<'EOF'
#include "all.h"
int use(void);
int use(void) { return cfn(0) + bfn(0); }
int use_t(T *t);
int use_t(T *t) { return t->v; }
EOF
cat >rx/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/rx", "file": "use.c", "arguments": ["gcc", "-c", "use.c"]}]
EOF

test_expect_success 'a replacement lists its includes in an order gcc compiles' '
	for mode in --exact --union; do
		hdrslim check $mode --json rx >out 2>err || :
		python3 - out <<-\EOF || return 1
		import json, subprocess, sys
		f = [f for f in json.load(open(sys.argv[1])) if (f["file"], f["line"]) == ("use.c", 1)]
		assert f and f[0]["kind"] == "replaceable", f
		adds = f[0]["suggestion"]["add"]
		assert sorted(adds) == ["\"a.h\"", "\"b.h\"", "\"c.h\""], adds
		lines = open("rx/use.c").read().split("\n")
		lines[0:1] = ["#include %s" % a for a in adds]
		open("rx/replaced.c", "w").write("\n".join(lines))
		r = subprocess.run(["gcc", "-Werror", "-fsyntax-only", "replaced.c"], cwd="rx", capture_output=True, text=True)
		assert r.returncode == 0, (adds, r.stderr)
		EOF
	done
'

# A header's fallout in its includers' configuration, not in the one its
# own walk guesses: redis's hiredis sockcompat.h includes <netdb.h>; net.c
# (-std=c99) gets struct addrinfo from it only because its fmacros.h
# defines _XOPEN_SOURCE first.  And a system header whose public face is
# the line itself is no replacement: <time.h> for struct tm is <time.h>
# (redis's localtime.c was told to include <sys/types.h> instead).
mkdir -p nx
cat >nx/fm.h <<'EOF'
#ifndef FM_H
#define FM_H
#define _XOPEN_SOURCE 600
#endif
EOF
cat >nx/compat.h <<'EOF'
#ifndef COMPAT_H
#define COMPAT_H
#include <unistd.h>
#include <netdb.h>
int compat_fn(void);
#endif
EOF
cat >nx/net.c <<'EOF'
#include "fm.h"
#include <string.h>
#include "compat.h"
int net(void);
int net(void) { struct addrinfo hints; memset(&hints, 0, sizeof hints); return hints.ai_flags + (int)getpid(); }
EOF
cat >nx/clock.c <<'EOF'
#include <time.h>
int clock_fn(time_t t);
int clock_fn(time_t t) { struct tm tm = {0}; tm.tm_sec = (int)t; return tm.tm_sec; }
EOF
cat >nx/compile_commands.json <<EOF
[{"directory": "$TRASH_DIRECTORY/nx", "file": "net.c", "arguments": ["gcc", "-std=c99", "-c", "net.c"]},
 {"directory": "$TRASH_DIRECTORY/nx", "file": "clock.c", "arguments": ["gcc", "-std=c99", "-c", "clock.c"]}]
EOF

test_expect_success 'fallout in the includer'"'"'s configuration; no replacement by a part of the line itself' '
	(cd nx && gcc -std=c99 -Werror -fsyntax-only net.c clock.c) &&
	! (cd nx && echo "#include <sys/types.h>" | cat - clock.c | sed 2d | gcc -std=c99 -fsyntax-only -x c - 2>/dev/null) &&
	hdrslim check --json nx >out 2>err || :
	no_crash err &&
	python3 - out <<-\EOF
	import json, sys
	d = {(f["file"], f["line"]): f for f in json.load(open(sys.argv[1]))}
	f = d[("compat.h", 4)]
	assert f["kind"] == "unused", f
	assert ("net.c", ["<netdb.h>"]) in [(x["file"], x["add"]) for x in f["fallout"]], f["fallout"]
	assert ("clock.c", 1) not in d, d[("clock.c", 1)]
	EOF
	sed -i "4s/.*//" nx/compat.h &&
	! (cd nx && gcc -std=c99 -fsyntax-only net.c 2>/dev/null) &&
	sed -i "3a #include <netdb.h>" nx/net.c &&
	(cd nx && gcc -std=c99 -Werror -fsyntax-only net.c)
'

test_done
