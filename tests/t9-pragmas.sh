#!/bin/bash
# t9-pragmas.sh: what users wrote overrides what check infers — IWYU pragmas
# (keep, export, begin_exports/end_exports, private, no_include), the
# equivalent /* hdrslim: keep */, a mapping file, an #include inside an
# initializer (X-macro table) and a .c file included by another .c.
#
# Each case first shows, with gcc, the fact the pragma is about (the kept
# include really is removable; the exported header really is what provides
# the symbol ...), then that hdrslim reports the finding without the pragma
# and honours it with the pragma.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"

compiles () {
	gcc -fsyntax-only -Wall -Werror "$@"
}

# ---- keep ----------------------------------------------------------------

mk_keep () {
	rm -rf keep && mkdir keep && cd keep &&
	printf '#ifndef U_H\n#define U_H\nint u_fn(void);\n#endif\n' >u.h &&
	printf '#include "u.h"%s\nint main(void) { return 0; }\n' "$1" >main.c &&
	cd ..
}

test_expect_success 'an unused include is reported, and gcc agrees it can go' '
	mk_keep "" &&
	(cd keep && sed "/u.h/d" main.c >m2.c && compiles m2.c && rm m2.c) &&
	test_expect_code 1 hdrslim check keep keep/main.c >out &&
	test_grep "main.c:1: unused: #include \"u.h\"" out
'

test_expect_success '// IWYU pragma: keep keeps it' '
	mk_keep " // IWYU pragma: keep" &&
	hdrslim check keep keep/main.c >out &&
	test_must_be_empty out
'

test_expect_success '/* hdrslim: keep */ keeps it' '
	mk_keep " /* hdrslim: keep */" &&
	hdrslim check keep keep/main.c >out &&
	test_must_be_empty out
'

test_expect_success 'a pragma in a string or on another line does not' '
	mk_keep "" &&
	printf "const char *s = \"// IWYU pragma: keep\";\n" >>keep/main.c &&
	test_expect_code 1 hdrslim check keep keep/main.c >out &&
	test_grep "unused" out
'

# ---- export --------------------------------------------------------------

# facade.h includes impl.h (which provides impl_fn); main.c includes
# facade.h and uses impl_fn.
mk_export () {
	rm -rf exp && mkdir exp && cd exp &&
	printf '#ifndef IMPL_H\n#define IMPL_H\nint impl_fn(void);\n#endif\n' >impl.h &&
	printf '#ifndef IMPL2_H\n#define IMPL2_H\nint impl2_fn(void);\n#endif\n' >impl2.h &&
	printf '#ifndef FACADE_H\n#define FACADE_H\nint facade_fn(void);\n%s\n#include "impl.h"%s\n#include "impl2.h"\n%s\n#endif\n' "$1" "$2" "$3" >facade.h &&
	printf '#include "facade.h"\nint main(void) { return impl_fn() + impl2_fn(); }\n' >main.c &&
	compiles main.c &&
	cd ..
}

test_expect_success 'without export: the facade is replaceable, impl.h missing (strict)' '
	mk_export "" "" "" &&
	test_expect_code 1 hdrslim check exp exp/main.c >out &&
	test_grep "main.c:1: replaceable: #include \"facade.h\".*\"impl.h\", \"impl2.h\" instead" out &&
	test_expect_code 1 hdrslim check --policy=strict --kinds=missing exp exp/main.c >out &&
	test_grep "missing: impl_fn" out &&
	test_grep "missing: impl2_fn" out
'

test_expect_success '// IWYU pragma: export makes the facade the home' '
	mk_export "" " // IWYU pragma: export" "" &&
	hdrslim check --policy=strict --kinds=missing exp exp/main.c >out || true &&
	! grep "impl_fn" out &&
	test_grep "missing: impl2_fn" out &&
	test_expect_code 1 hdrslim check --kinds=unused exp exp/facade.h >out &&
	! grep "\"impl.h\"" out &&
	test_grep "facade.h:6: unused: #include \"impl2.h\"" out
'

test_expect_success 'begin_exports / end_exports export every include between' '
	mk_export "// IWYU pragma: begin_exports" "" "// IWYU pragma: end_exports" &&
	hdrslim check --policy=strict exp exp/main.c >out &&
	test_must_be_empty out
'

# An umbrella header of nothing but directives: its symbol facts come
# from its directives alone, unless a comment in it is a pragma.
for form in "// IWYU pragma: export" "/* IWYU pragma: export */"
do
	test_expect_success "a header of directives only: $form still exports" '
		rm -rf umb && mkdir umb && cd umb &&
		printf "#ifndef REAL_H\n#define REAL_H\nint real_fn(void);\n#endif\n" >real.h &&
		printf "#ifndef UMB_H\n#define UMB_H\n#include \"real.h\"%s\n#endif\n" "" >umb.h &&
		printf "#include \"umb.h\"\nint main(void) { return real_fn(); }\n" >main.c &&
		compiles main.c &&
		test_expect_code 1 hdrslim check --policy=strict --kinds=missing . main.c >out &&
		test_grep "missing: real_fn" out &&
		printf "#ifndef UMB_H\n#define UMB_H\n#include \"real.h\" %s\n#endif\n" "$form" >umb.h &&
		hdrslim check --policy=strict --kinds=missing . main.c >out &&
		test_must_be_empty out
	'
done

# ---- private, mapping, no_include ----------------------------------------

# pub.h is the public face of priv.h; other.h includes priv.h; main.c
# uses priv_fn through other.h.
mk_private () {
	rm -rf priv && mkdir priv && cd priv &&
	printf '#ifndef PRIV_H\n#define PRIV_H\n%s\nint priv_fn(void);\n#endif\n' "$1" >priv.h &&
	printf '#ifndef PUB_H\n#define PUB_H\n#include "priv.h"\n#endif\n' >pub.h &&
	printf '#ifndef OTHER_H\n#define OTHER_H\n#include "priv.h"\nint other_fn(void);\n#endif\n' >other.h &&
	printf '%s#include "other.h"\nint main(void) { return priv_fn() + other_fn(); }\n' "$2" >main.c &&
	compiles main.c &&
	printf "#include \"pub.h\"\n" | cat - main.c >m2.c && compiles m2.c && rm m2.c &&
	cd ..
}

test_expect_success 'strict: the home of priv_fn is priv.h' '
	mk_private "" "" &&
	test_expect_code 1 hdrslim check --policy=strict --kinds=missing priv priv/main.c >out &&
	test_grep "missing: priv_fn: its home \"priv.h\"" out
'

test_expect_success 'IWYU pragma: private, include "pub.h" sends users to pub.h' '
	mk_private "// IWYU pragma: private, include \"pub.h\"" "" &&
	test_expect_code 1 hdrslim check --policy=strict --kinds=missing priv priv/main.c >out &&
	test_grep "missing: priv_fn: its home \"pub.h\"" out
'

test_expect_success 'a mapping file does the same, in both formats' '
	mk_private "" "" &&
	printf "# private -> public\n\"priv.h\" -> \"pub.h\"\n" >map &&
	test_expect_code 1 hdrslim check --policy=strict --kinds=missing --mapping map priv priv/main.c >out &&
	test_grep "missing: priv_fn: its home \"pub.h\"" out &&
	printf "[\n  { include: [\"\\\\\"priv.h\\\\\"\", \"private\", \"\\\\\"pub.h\\\\\"\", \"public\"] },\n]\n" >map.imp &&
	cat map.imp &&
	test_expect_code 1 hdrslim check --policy=strict --kinds=missing --mapping map.imp priv priv/main.c >out &&
	test_grep "missing: priv_fn: its home \"pub.h\"" out
'

test_expect_success 'a malformed mapping file is an error with its line' '
	mk_private "" "" &&
	printf "\"priv.h\" -> \"pub.h\"\nnonsense here\n" >bad.map &&
	test_expect_code 2 hdrslim check --mapping bad.map priv priv/main.c 2>err &&
	test_grep "bad.map:2:" err &&
	test_expect_code 2 hdrslim check --mapping no-such-map priv priv/main.c 2>err &&
	test_grep "no-such-map" err
'

test_expect_success 'IWYU pragma: no_include "priv.h" stops the suggestion' '
	mk_private "" "// IWYU pragma: no_include \"priv.h\"
" &&
	hdrslim check --policy=strict --kinds=missing priv priv/main.c >out &&
	test_must_be_empty out
'

test_expect_success 'a pragma written inside a string literal is none' '
	mk_keep "" &&
	(cd keep && printf "static const char *note = \"// IWYU pragma: begin_exports\";\n#include \"u.h\"\nint main(void) { return note[0]; }\n" >main.c &&
	 compiles main.c && sed "/u.h/d" main.c >m2.c && compiles m2.c && rm m2.c) &&
	test_expect_code 1 hdrslim check keep keep/main.c >out &&
	test_grep "main.c:2: unused: #include \"u.h\"" out
'

# ---- an include inside a table -------------------------------------------

test_expect_success 'an #include inside an initializer is never reported' '
	rm -rf xm && mkdir xm && cd xm &&
	printf "X(one)\nX(two)\n" >names.h &&
	printf "#define X(n) #n,\nstatic const char *names[] = {\n#include \"names.h\"\n};\n#undef X\nint main(void) { return names[0][0]; }\n" >main.c &&
	compiles main.c &&
	hdrslim symbols main.c >syms &&
	test_grep "^pragma 3 nested-include" syms &&
	hdrslim check . main.c >out &&
	test_must_be_empty out
'

# ---- a .c file included by a .c file --------------------------------------

# needed_and_kept HEADER: a.c (here) compiles, and not without its line
# naming HEADER; hdrslim reports no include of it removable.
needed_and_kept () {
	compiles a.c &&
	sed "/\"$1\"/d" a.c >a2.c && ! compiles a2.c 2>/dev/null && rm a2.c &&
	hdrslim check --kinds=unused,redundant,replaceable . a.c >out &&
	test_must_be_empty out
}

test_expect_success 'an include used only by an included .c file is kept' '
	rm -rf cc && mkdir cc && cd cc &&
	printf "#ifndef B_H\n#define B_H\nint b_fn(void);\n#endif\n" >b.h &&
	printf "static int helper(void) { return b_fn(); }\n" >part.c &&
	printf "#include \"b.h\"\n#include \"part.c\"\nint main(void) { return helper(); }\n" >a.c &&
	needed_and_kept b.h
'

# b.h comes first through c.h and d.h, both under #if (and kept): only
# the third line brings it for certain, and part.c needs it
test_expect_success 'an include an included .c file needs is kept when others bring it only under #if' '
	rm -rf cc2 && mkdir cc2 && cd cc2 &&
	printf "#ifndef B_H\n#define B_H\nint b_fn(void);\n#endif\n" >b.h &&
	printf "#ifndef C_H\n#define C_H\n#ifdef WITH_B\n#include \"b.h\"\n#endif\n#endif\n" >c.h &&
	printf "#ifndef D_H\n#define D_H\n#ifdef WITH_B\n#include \"b.h\"\n#endif\n#endif\n" >d.h &&
	printf "static int helper(void) { return b_fn(); }\n" >part.c &&
	printf "#include \"c.h\" /* hdrslim: keep */\n#include \"d.h\" /* hdrslim: keep */\n#include \"b.h\"\n#include \"part.c\"\nint main(void) { return helper(); }\n" >a.c &&
	needed_and_kept b.h
'

test_expect_success 'an include an included .c file needs for a pasted name is kept' '
	rm -rf cc3 && mkdir cc3 && cd cc3 &&
	printf "#ifndef A_H\n#define A_H\n#define DEFINE_GETTER(n) static inline int get_##n(void) { return 1; }\nDEFINE_GETTER(foo)\n#endif\n" >a.h &&
	printf "static int helper(void) { return get_foo(); }\n" >part.c &&
	printf "#include \"a.h\"\n#include \"part.c\"\nint main(void) { return helper(); }\n" >a.c &&
	needed_and_kept a.h
'

# ---- a header that declares what the file defines -------------------------

test_expect_success 'the prototype of a function the file defines keeps its header' '
	rm -rf pr && mkdir pr && cd pr &&
	printf "#ifndef API_H\n#define API_H\nint api_call(int x);\n#endif\n" >api.h &&
	printf "#include \"api.h\"\nint api_call(int x) { return x + 1; }\n" >api.c &&
	gcc -fsyntax-only -Wmissing-prototypes -Werror api.c &&
	sed "/api.h/d" api.c >a2.c && ! gcc -fsyntax-only -Wmissing-prototypes -Werror a2.c 2>/dev/null &&
	rm a2.c &&
	hdrslim check . api.c >out &&
	test_must_be_empty out
'

# ---- headers that exist for their includes ----------------------------------

test_expect_success 'a header that only forwards to others keeps its includes' '
	rm -rf fw && mkdir fw && cd fw &&
	printf "#ifndef REAL_H\n#define REAL_H\nint real_fn(void);\n#endif\n" >real.h &&
	printf "#ifndef FWD_H\n#define FWD_H\n#include \"real.h\"\n#endif\n" >fwd.h &&
	printf "#include \"fwd.h\"\nint main(void) { return real_fn(); }\n" >main.c &&
	compiles main.c &&
	hdrslim check --kinds=unused,redundant,replaceable . fwd.h >out &&
	test_must_be_empty out
'

test_expect_success 'an include that uses what its includer defined first is kept' '
	rm -rf tpl && mkdir tpl && cd tpl &&
	printf "static inline int twice(int x) { return base_op(x) * 2; }\n" >tpl.h &&
	printf "#ifndef OPS_H\n#define OPS_H\nstatic inline int base_op(int x) { return x; }\n#include \"tpl.h\"\n#endif\n" >ops.h &&
	printf "#include \"ops.h\"\nint main(void) { return twice(1); }\n" >main.c &&
	compiles main.c &&
	hdrslim check --kinds=unused,redundant,replaceable . ops.h >out &&
	test_must_be_empty out
'

# ---- --decl-macro ----------------------------------------------------------

test_expect_success '--decl-macro makes a macro call declare its arguments' '
	rm -rf dm && mkdir dm && cd dm &&
	printf "#ifndef MK_H\n#define MK_H\n#define MAKE_COUNTER(n) extern int n\n#endif\n" >mk.h &&
	printf "#ifndef CNT_H\n#define CNT_H\n#include \"mk.h\"\nMAKE_COUNTER(hits);\n#endif\n" >cnt.h &&
	printf "#ifndef ALL_H\n#define ALL_H\n#include \"cnt.h\"\n#endif\n" >all.h &&
	printf "#include \"all.h\"\nint main(void) { return hits; }\n" >main.c &&
	compiles main.c &&
	hdrslim check --policy=strict --kinds=missing . main.c >out || true &&
	! grep "missing: hits" out &&
	test_expect_code 1 hdrslim check --policy=strict --kinds=missing --decl-macro OTHER,MAKE_COUNTER . main.c >out &&
	test_grep "main.c:2: missing: hits: its home \"cnt.h\"" out
'

test_done
