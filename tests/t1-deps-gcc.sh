#!/bin/bash
# t1-deps-gcc.sh: exactness of `hdrslim deps` against gcc -M.
#
# For every fixture tree tests/deps/<case>/ and every TU invocation (line) of
# its `cmd` file (lines starting with # are comments), run in the case
# directory:
#   gcc -M -MG <flags>                         (the reference)
#   hdrslim deps --exact -MG <flags>           (must give the same headers)
# and check:
#   - fixture: gcc accepts the fixture silently and lists exactly the in-tree
#     headers written down in <case>/expect.N (N = invocation number); this
#     guards the fixture itself, not hdrslim;
#   - exact set: exit 0, same set of (lexically normalized) paths as gcc;
#   - exact order: the raw output is already normalized, has no duplicates
#     and is in gcc's first-inclusion order;
#   - union: `hdrslim deps --union -MG` lists a superset of gcc's set;
#   - make: `--make` output parsed like gcc's gives gcc's target, source and
#     dependency set.
# /usr/include/stdc-predef.h, which gcc pre-includes implicitly, is left out
# of the per-case comparisons and checked once on its own at the end, as are
# -C TREE and absolute paths.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v realpath >/dev/null 2>&1 || skip_all "realpath not found"

DEPS=$TEST_DIRECTORY/deps
PREDEF=/usr/include/stdc-predef.h

# listing of the fixture trees, to check at the end that nothing was written
(cd "$DEPS" && find . | sort) >"$TRASH_DIRECTORY/deps.before"

# drop_predef: filter gcc's implicit pre-include out of a path list.
drop_predef () {
	sed "\\#^$PREDEF\$#d"
}

# rule_target: the target of the first make rule on stdin.
rule_target () {
	sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' | sed -n '1s/:.*//p' | tr -d ' \t'
}

# rule_source: the first prerequisite of the first make rule on stdin.
rule_source () {
	sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' |
	sed -n '1s/^[^:]*:[[:space:]]*//p' | awk '{ print $1 }'
}

# show FILE...: print files with a header, for failure logs.
show () {
	for _f; do
		echo "--- $(basename "$_f"):"
		cat "$_f"
	done
}

for case_dir in "$DEPS"/*/; do
	case_dir=${case_dir%/}
	c=${case_dir##*/}
	if ! test -f "$case_dir/cmd"; then
		test_expect_success "$c: has a cmd file" 'false'
		continue
	fi
	n=0
	while IFS= read -r line || test -n "$line"; do
		case $line in
		''|'#'*) continue ;;
		esac
		n=$((n + 1))
		o=$TRASH_DIRECTORY/$c.$n
		tag="$c/$n [$line]"

		test_expect_success "$tag: fixture: gcc -M -MG is silent and lists expect.$n" '
			cd "$case_dir"
			set -f; set -- $line; set +f
			rc=0
			gcc -M -MG "$@" >"$o.gcc.rule" 2>"$o.gcc.err" || rc=$?
			make_rule_deps <"$o.gcc.rule" | normalize_paths |
				uniq_keep_order | drop_predef >"$o.gcc.list"
			sort -u "$o.gcc.list" >"$o.gcc.set"
			rule_target <"$o.gcc.rule" >"$o.gcc.target"
			rule_source <"$o.gcc.rule" | normalize_paths >"$o.gcc.source"
			sed "\\#^/#d" "$o.gcc.list" >"$o.gcc.local"
			test "$rc" = 0 || { show "$o.gcc.err"; false; }
			test_must_be_empty "$o.gcc.err"
			test_cmp "$case_dir/expect.$n" "$o.gcc.local"
		'

		test_expect_success "$tag: deps --exact -MG: exit 0, same headers as gcc" '
			cd "$case_dir"
			set -f; set -- $line; set +f
			rc=0
			hdrslim deps --exact -MG "$@" >"$o.exact.out" 2>"$o.exact.err" || rc=$?
			normalize_paths <"$o.exact.out" | drop_predef | sort -u >"$o.exact.set"
			show "$o.exact.err"
			test_cmp "$o.gcc.set" "$o.exact.set"
			test "$rc" = 0 || { echo "exit status $rc"; false; }
		'

		test_expect_success "$tag: deps --exact -MG: normalized paths, no duplicates, gcc order" '
			drop_predef <"$o.exact.out" >"$o.exact.list" &&
			test_cmp "$o.gcc.list" "$o.exact.list"
		'

		test_expect_success "$tag: deps --union -MG: superset of gcc" '
			cd "$case_dir"
			set -f; set -- $line; set +f
			rc=0
			hdrslim deps --union -MG "$@" >"$o.union.out" 2>"$o.union.err" || rc=$?
			normalize_paths <"$o.union.out" | sort -u >"$o.union.set"
			comm -23 "$o.gcc.set" "$o.union.set" >"$o.union.lacking"
			show "$o.union.err"
			echo "headers gcc lists that --union lacks:"
			test_must_be_empty "$o.union.lacking"
			test "$rc" -le 1 || { echo "exit status $rc"; false; }
		'

		test_expect_success "$tag: deps --exact -MG --make: same rule as gcc -M -MG" '
			cd "$case_dir"
			set -f; set -- $line; set +f
			rc=0
			hdrslim deps --exact -MG --make "$@" >"$o.make.rule" 2>"$o.make.err" || rc=$?
			make_rule_deps <"$o.make.rule" | normalize_paths | drop_predef |
				sort -u >"$o.make.set"
			rule_target <"$o.make.rule" >"$o.make.target"
			rule_source <"$o.make.rule" | normalize_paths >"$o.make.source"
			show "$o.make.rule" "$o.make.err"
			test_cmp "$o.gcc.target" "$o.make.target"
			test_cmp "$o.gcc.source" "$o.make.source"
			test_cmp "$o.gcc.set" "$o.make.set"
			test "$rc" = 0 || { echo "exit status $rc"; false; }
		'
	done <"$case_dir/cmd"

	# every expect.N must belong to an invocation
	for e in "$case_dir"/expect.*; do
		k=${e##*.}
		if test "$k" -gt "$n" 2>/dev/null || test "$k" = '*'; then
			test_expect_success "$c: expect.$k has no matching cmd line" 'false'
		fi
	done
done

# ---- things checked once rather than per case ---------------------------

test_expect_success 'implicit stdc-predef.h pre-include is listed like gcc' '
	printf "int x;\n" >predef.c &&
	gcc -M predef.c | make_rule_deps >gcc.predef &&
	hdrslim deps --exact predef.c >hdr.predef &&
	test_cmp gcc.predef hdr.predef
'

test_expect_success '-nostdinc: no stdc-predef.h, like gcc' '
	printf "int x;\n" >predef.c &&
	gcc -M -nostdinc predef.c | make_rule_deps >gcc.nostdinc &&
	hdrslim deps --exact -nostdinc predef.c >hdr.nostdinc &&
	test_cmp gcc.nostdinc hdr.nostdinc &&
	test_must_be_empty hdr.nostdinc
'

test_expect_success 'absolute paths outside the tree are printed absolute' '
	d=$DEPS/quote-vs-angle &&
	gcc -M -MG -I "$d/inc" "$d/src/main.c" | make_rule_deps |
		drop_predef >gcc.abs &&
	hdrslim deps --exact -MG -I "$d/inc" "$d/src/main.c" >hdr.abs.raw &&
	drop_predef <hdr.abs.raw >hdr.abs &&
	test_cmp gcc.abs hdr.abs &&
	test_grep "^$d/inc/peer.h\$" hdr.abs
'

test_expect_success '-C TREE: paths inside TREE printed relative to it' '
	d=$DEPS/quote-vs-angle &&
	printf "src/same.h\ninc/same.h\ninc/other.h\ninc/peer.h\n" >expect.tree &&
	hdrslim deps --exact -MG -C "$d" -I "$d/inc" "$d/src/main.c" >hdr.tree.raw &&
	drop_predef <hdr.tree.raw >hdr.tree &&
	test_cmp expect.tree hdr.tree
'

test_expect_success 'several FILEs: each TU is analysed (union as gcc -M)' '
	cd "$DEPS"
	gcc -M -MG -I iquote/inc iquote/main.c guard-classic/main.c >"$TRASH_DIRECTORY/gcc.multi.rule"
	make_rule_deps <"$TRASH_DIRECTORY/gcc.multi.rule" | normalize_paths |
		drop_predef | sort -u >"$TRASH_DIRECTORY/gcc.multi"
	hdrslim deps --exact -MG -I iquote/inc iquote/main.c guard-classic/main.c >"$TRASH_DIRECTORY/hdr.multi"
	cd "$TRASH_DIRECTORY"
	drop_predef <hdr.multi | sort -u >hdr.multi.set
	test_grep -x "iquote/inc/a.h" gcc.multi
	test_grep -x "guard-classic/a.h" gcc.multi
	test_cmp gcc.multi hdr.multi.set
'

test_expect_success 'hdrslim wrote nothing into the fixture trees' '
	(cd "$DEPS" && find . | sort) >deps.after
	test_cmp deps.before deps.after
'

test_done
