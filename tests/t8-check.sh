#!/bin/bash
# t8-check.sh: `hdrslim check` findings against what gcc proves.
#
# For every fixture tree tests/check/<case>/ (see tests/README) and every
# invocation (non-comment line) N of its `cmd` file, on a copy of the tree
# (the tests edit files), with the gcc flags of the invocation (its -I, -D,
# -U, ... words; in union mode, i.e. without -D/-U, also each line of
# `configs` added to them, since a union-mode finding must hold in every
# configuration):
#
#   fixture (independent of hdrslim, must pass whatever hdrslim does):
#     - every .c and .h compiles on its own without any diagnostic with
#       gcc -fsyntax-only -Wall -Werror=implicit-function-declaration;
#     - expect.N is sorted, well formed and points at real lines: the
#       #include as spelled for include findings, the first use of the
#       symbol for `missing`;
#     - applying each expected finding by hand (delete the #include; put the
#       `apply` file's additions or declaration in its place; add the
#       fallout includes; for `missing`, add the include) leaves every file
#       compiling silently: the expectation is proven by gcc.  A fallout
#       entry must be needed: without it something breaks;
#     - each `keep` line (an include that must not be reported unused)
#       really is needed: without it gcc fails in some configuration;
#   hdrslim:
#     - `hdrslim check ARGS` prints exactly the finding keys of expect.N
#       (FILE:LINE: KIND: #include X, or FILE:LINE: missing: SYMBOL), exit 1
#       when there are findings, 0 when none;
#     - `--json` is a well-formed array whose findings give the same keys
#       and the same exit status, with the fallout of `apply`;
#     - applying hdrslim's own JSON suggestions, one finding at a time,
#       leaves every file compiling (gcc decides, not expect.N);
#     - `--kinds=unused` keeps only the unused findings.
# Then, once: FILE arguments, the default TREE, exit 2 on bad input.
#
# The JSON is parsed with awk (json_flat below): no jq or python needed.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"

CHECK=$TEST_DIRECTORY/check
CC_FLAGS="-fsyntax-only -Wall -Werror=implicit-function-declaration"
KEY_RE='^[^:]*:[0-9][0-9]*: \(unused\|replaceable\|redundant\|missing\|forward-declarable\): [^:]*$'

# listing and checksums of the fixtures, to check at the end that nothing
# was written into them
(cd "$CHECK" && find . -type f | sort | xargs cksum) >"$TRASH_DIRECTORY/check.before"

# ---- helpers -------------------------------------------------------------

# fresh CASE_DIR DEST: DEST becomes a copy of the case's source files.
fresh () {
	rm -rf "$2"
	mkdir -p "$2"
	cp -R "$1/." "$2"
	find "$2" -type f ! -name '*.c' ! -name '*.h' -exec rm -f {} +
}

# sources: every .c and .h below the current directory, sorted.
sources () {
	find . -type f \( -name '*.c' -o -name '*.h' \) | sed 's|^\./||' | sort
}

# compile_all [GCC_FLAGS...]: in the current directory, compile every .c and
# .h on its own; print the diagnostics; fail if any file fails or warns.
compile_all () {
	_ca_rc=0
	test -n "$(sources)" || { echo "no .c or .h file in $(pwd)"; return 1; }
	for _ca_f in $(sources); do
		_ca_err=$(gcc $CC_FLAGS -x c "$@" "$_ca_f" 2>&1) || _ca_rc=1
		if test -n "$_ca_err"; then
			echo "gcc $* $_ca_f:"
			printf '%s\n' "$_ca_err"
			_ca_rc=1
		fi
	done
	return $_ca_rc
}

# compile_configs CONFIGS_FILE: compile_all once per line (gcc flags) of it.
compile_configs () {
	_cc_rc=0
	test -s "$1" || { echo "$1: no configuration"; return 1; }
	while IFS= read -r _cc_flags; do
		set -f
		compile_all $_cc_flags || _cc_rc=1
		set +f
	done <"$1"
	return $_cc_rc
}

# some_config_fails CONFIGS_FILE: true if some file fails (or warns) in some
# configuration; shows gcc's complaint.
some_config_fails () {
	if compile_configs "$1" >/dev/null; then
		echo "every file still compiles in every configuration"
		return 1
	fi
	compile_configs "$1" || :
}

# cc_flags ARGS...: the compiler flags among hdrslim check arguments.
cc_flags () {
	_cf=
	while test $# -gt 0; do
		case $1 in
		-I|-D|-U|-iquote|-isystem|-idirafter|-include)
			_cf="$_cf $1 $2"
			shift ;;
		-I?*|-D?*|-U?*)
			_cf="$_cf $1" ;;
		esac
		shift
	done
	echo $_cf
}

# is_exact ARGS...: a configuration is given (-D/-U), so hdrslim runs in
# exact mode.
is_exact () {
	for _a; do
		case $_a in
		-D*|-U*) return 0 ;;
		esac
	done
	return 1
}

# write_configs CASE_DIR OUT ARGS...: the gcc flag sets of an invocation,
# one per line: its own flags, and in union mode each `configs` line added.
write_configs () {
	_wc_dir=$1 _wc_out=$2
	shift 2
	_wc_base=$(cc_flags "$@")
	echo "$_wc_base" >"$_wc_out"
	if ! is_exact "$@" && test -f "$_wc_dir/configs"; then
		sed -e '/^[[:space:]]*$/d' -e '/^#/d' -e "s|^|$_wc_base |" \
			"$_wc_dir/configs" >>"$_wc_out"
	fi
}

# parse_key KEY: sets k_file, k_line, k_kind, k_what (`#include X` or the
# symbol) and k_spelling (X).
parse_key () {
	k_file=${1%%:*}
	_pk=${1#*:}
	k_line=${_pk%%:*}
	_pk=${_pk#*: }
	k_kind=${_pk%%:*}
	k_what=${_pk#*: }
	k_spelling=${k_what#\#include }
}

# include_at FILE LINE SPELLING: line LINE of FILE is `#include SPELLING`.
include_at () {
	_ia=$(sed -n "$2{s/[[:space:]]//g;p;}" "$1")
	case $_ia in
	"#include$3"*) return 0 ;;
	esac
	echo "$1:$2 is '$(sed -n "$2p" "$1")', not #include $3"
	return 1
}

# first_use FILE SYMBOL: the line of the first use of SYMBOL in FILE.
first_use () {
	grep -n -w -- "$2" "$1" | head -n 1 | cut -d: -f1
}

# replace_line FILE LINE TEXT: line LINE of FILE becomes TEXT (several lines
# or none).
replace_line () {
	REPL=$3 awk -v n="$2" '
		NR == n { if (ENVIRON["REPL"] != "") print ENVIRON["REPL"]; next }
		{ print }' "$1" >"$1.new"
	mv "$1.new" "$1"
}

# add_includes FILE SPELLING...: add `#include SPELLING` lines after the last
# #include of FILE; with none, after the first #define (the guard) of a
# header, else at the top.
add_includes () {
	_ai_f=$1
	shift
	test $# -gt 0 || return 0
	_ai_txt=$(for _s; do printf '#include %s\n' "$_s"; done)
	_ai_at=$(grep -n '^[[:space:]]*#[[:space:]]*include' "$_ai_f" |
		tail -n 1 | cut -d: -f1)
	if test -z "$_ai_at"; then
		case $_ai_f in
		*.h) _ai_at=$(grep -n '^[[:space:]]*#[[:space:]]*define' "$_ai_f" |
			head -n 1 | cut -d: -f1) ;;
		esac
	fi
	REPL=$_ai_txt awk -v n="${_ai_at:-0}" '
		n == 0 && NR == 1 { print ENVIRON["REPL"] }
		{ print }
		NR == n { print ENVIRON["REPL"] }
		END { if (n == 0 && NR == 0) print ENVIRON["REPL"] }' "$_ai_f" >"$_ai_f.new"
	mv "$_ai_f.new" "$_ai_f"
}

# actions_of KEY FILE: the actions FILE (an `apply` file) gives for KEY.
actions_of () {
	test -f "$2" || return 0
	KEY="$1 -> " awk '
		index($0, ENVIRON["KEY"]) == 1 { print substr($0, length(ENVIRON["KEY"]) + 1) }' "$2"
}

# apply_finding KEY ACTIONS_FILE [nofallout]: apply the finding KEY to the
# tree in the current directory, as told by the actions for KEY:
#   add SPELLING...        include findings: these includes replace the
#                          line; missing: these includes are added
#   decl TEXT              TEXT replaces the #include line
#   fallout FILE SPELLING...  add these includes to FILE
# Without an action, unused and redundant mean: delete the line.  A `keep`
# line (FILE:LINE: #include X) is applied like an unused finding.
apply_finding () {
	parse_key "$1"
	case $k_kind in
	"#include "*)	# a keep line
		k_spelling=${k_kind#\#include }
		k_kind=keep ;;
	esac
	_af_add= _af_decl= _af_fall=
	actions_of "$1" "$2" >"$TRASH_DIRECTORY/actions.tmp"
	while read -r _af_verb _af_rest; do
		case $_af_verb in
		add) _af_add="$_af_add $_af_rest" ;;
		decl) _af_decl="$_af_decl${_af_decl:+
}$_af_rest" ;;
		fallout) _af_fall="$_af_fall${_af_fall:+
}$_af_rest" ;;
		'') ;;
		*) echo "unknown action '$_af_verb' for $1"; return 1 ;;
		esac
	done <"$TRASH_DIRECTORY/actions.tmp"
	test -f "$k_file" || { echo "$k_file: no such file"; return 1; }
	case $k_kind in
	missing)
		test -n "$_af_add" || { echo "no 'add' action for $1"; return 1; }
		for _s in $_af_add; do
			if grep -q "^[[:space:]]*#[[:space:]]*include[[:space:]]*$_s" "$k_file"; then
				echo "$k_file already includes $_s: not missing"
				return 1
			fi
		done
		add_includes "$k_file" $_af_add ;;
	unused|redundant|replaceable|forward-declarable|keep)
		include_at "$k_file" "$k_line" "$k_spelling" || return 1
		case $k_kind in
		replaceable) test -n "$_af_add" || { echo "no 'add' action for $1"; return 1; } ;;
		forward-declarable) test -n "$_af_decl" || { echo "no 'decl' action for $1"; return 1; } ;;
		esac
		_af_txt=$(for _s in $_af_add; do printf '#include %s\n' "$_s"; done
			test -z "$_af_decl" || printf '%s\n' "$_af_decl")
		replace_line "$k_file" "$k_line" "$_af_txt" ;;
	*)
		echo "unknown finding kind '$k_kind' in: $1"
		return 1 ;;
	esac
	test "$3" = nofallout && return 0
	printf '%s\n' "$_af_fall" | while read -r _af_ff _af_fs; do
		test -n "$_af_ff" || continue
		test -f "$_af_ff" || { echo "fallout file $_af_ff does not exist"; exit 1; }
		add_includes "$_af_ff" $_af_fs
	done
}

# check_keys: stdin = hdrslim check text output; stdout = the finding keys,
# sorted.
check_keys () {
	sed -n 's/^\([^:]*:[0-9]*: [a-z-]*: [^:]*\):.*/\1/p' | grep -v ': note: ' | sort
}

# json_flat: stdin = JSON; stdout = one line per scalar, PATH<TAB>VALUE, in
# document order: `0.kind	unused`, `0.suggestion.add.0	"a.h"`, empty
# arrays and objects as [] and {}.  Strings are unescaped (\n shown as \n).
# Fails on malformed JSON or a top level that is not an array.
json_flat () {
	awk '
	function fail(msg) {
		printf "json_flat: %s at offset %d: %s\n", msg, pos, substr(s, pos, 40) >"/dev/stderr"
		bad = 1
		exit 1
	}
	function ws() {
		while (pos <= n && index(" \t\r\n", substr(s, pos, 1)) > 0)
			pos++
	}
	function str(   c, out) {
		pos++
		out = ""
		for (;;) {
			if (pos > n) fail("unterminated string")
			c = substr(s, pos, 1)
			if (c == "\"") { pos++; return out }
			if (c == "\\") {
				pos++
				c = substr(s, pos, 1)
				if (c == "n") out = out "\\n"
				else if (c == "t") out = out "\\t"
				else if (c == "u") { out = out "\\u" substr(s, pos + 1, 4); pos += 4 }
				else if (c == "\"" || c == "\\" || c == "/") out = out c
				else if (c == "b" || c == "f" || c == "r") out = out
				else fail("bad escape")
				pos++
				continue
			}
			if (c == "\n") fail("newline in string")
			out = out c
			pos++
		}
	}
	function value(path,   c, k, i) {
		ws()
		c = substr(s, pos, 1)
		if (c == "{") {
			pos++
			ws()
			if (substr(s, pos, 1) == "}") { pos++; print path "\t{}"; return }
			for (;;) {
				ws()
				if (substr(s, pos, 1) != "\"") fail("object key expected")
				k = str()
				ws()
				if (substr(s, pos, 1) != ":") fail("colon expected")
				pos++
				value(path == "" ? k : path "." k)
				ws()
				c = substr(s, pos, 1)
				pos++
				if (c == "}") return
				if (c != ",") fail("comma or } expected")
			}
		}
		if (c == "[") {
			pos++
			ws()
			if (substr(s, pos, 1) == "]") { pos++; print path "\t[]"; return }
			for (i = 0; ; i++) {
				value(path == "" ? i "" : path "." i)
				ws()
				c = substr(s, pos, 1)
				pos++
				if (c == "]") return
				if (c != ",") fail("comma or ] expected")
			}
		}
		if (c == "\"") { k = str(); print path "\t" k; return }
		if (match(substr(s, pos), /^(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false|null)/)) {
			print path "\t" substr(s, pos, RLENGTH)
			pos += RLENGTH
			return
		}
		fail("value expected")
	}
	{ s = s $0 "\n" }
	END {
		if (bad) exit 1
		n = length(s)
		pos = 1
		ws()
		if (substr(s, pos, 1) != "[") fail("top level is not an array")
		value("")
		ws()
		if (pos <= n) fail("text after the array")
	}'
}

# jget FLAT PATH: the value at PATH.
jget () {
	P=$2 awk -F '\t' '$1 == ENVIRON["P"] { print $2 }' "$1"
}

# jlist FLAT PATH: the elements of the array at PATH, one per line.
jlist () {
	P=$2 awk -F '\t' '
		index($1, ENVIRON["P"] ".") == 1 && substr($1, length(ENVIRON["P"]) + 2) ~ /^[0-9]+$/ { print $2 }' "$1"
}

# jcount FLAT: number of findings (elements of the top-level array).
jcount () {
	awk -F '\t' '$1 != "" { sub(/\..*/, "", $1); if ($1 + 1 > n) n = $1 + 1 } END { print n + 0 }' "$1"
}

# json_key FLAT I: the text key of finding I.
json_key () {
	_jk_kind=$(jget "$1" "$2.kind")
	if test "$_jk_kind" = missing; then
		_jk_what=$(jlist "$1" "$2.symbols" | head -n 1)
	else
		_jk_what="#include $(jget "$1" "$2.include")"
	fi
	echo "$(jget "$1" "$2.file"):$(jget "$1" "$2.line"): $_jk_kind: $_jk_what"
}

# json_actions FLAT I: finding I's suggestion as `apply` lines (KEY -> ...).
# forward-declarable: an "add" entry that is not an include spelling is taken
# as the declaration text; without one, `struct SYM;` for each symbol.
json_actions () {
	_ja_key=$(json_key "$1" "$2")
	_ja_kind=$(jget "$1" "$2.kind")
	_ja_add=
	_ja_decl=
	while IFS= read -r _ja_a; do
		case $_ja_a in
		'[]'|'') ;;
		\<*\>|\"*\") _ja_add="$_ja_add $_ja_a" ;;
		*) _ja_decl="$_ja_decl$_ja_a
" ;;
		esac
	done <<EOF
$(jlist "$1" "$2.suggestion.add")
EOF
	if test "$_ja_kind" = forward-declarable && test -z "$_ja_decl"; then
		for _ja_s in $(jlist "$1" "$2.symbols"); do
			case $_ja_s in
			struct\ *|union\ *|enum\ *) _ja_decl="$_ja_decl$_ja_s;
" ;;
			*) _ja_decl="${_ja_decl}struct $_ja_s;
" ;;
			esac
		done
	fi
	test -z "$_ja_add" || echo "$_ja_key -> add$_ja_add"
	printf '%s' "$_ja_decl" | while IFS= read -r _ja_d; do
		echo "$_ja_key -> decl $_ja_d"
	done
	_ja_k=0
	while test -n "$(jget "$1" "$2.fallout.$_ja_k.file")"; do
		echo "$_ja_key -> fallout $(jget "$1" "$2.fallout.$_ja_k.file")" \
			$(jlist "$1" "$2.fallout.$_ja_k.add")
		_ja_k=$((_ja_k + 1))
	done
}

# fallout_of KEY ACTIONS_FILE: the fallout actions for KEY, normalized.
fallout_of () {
	actions_of "$1" "$2" | sed -n 's/^fallout //p' | tr -s ' ' | sort
}

# show FILE...: print files with a header, for failure logs.
show () {
	for _f; do
		echo "--- $(basename "$_f"):"
		cat "$_f"
	done
}

# ---- per case, per invocation --------------------------------------------

for case_dir in "$CHECK"/*/; do
	case_dir=${case_dir%/}
	c=${case_dir##*/}
	if ! test -f "$case_dir/cmd"; then
		test_expect_success "$c: has a cmd file" 'false'
		continue
	fi
	ninv=$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$case_dir/cmd")
	W=$TRASH_DIRECTORY/$c
	mkdir -p "$W"
	fresh "$case_dir" "$W/tree"

	test_expect_success "$c: fixture: expect file(s) match the cmd lines" '
		if test "$ninv" = 1; then
			test -f "$case_dir/expect" || test -f "$case_dir/expect.1"
		else
			! test -f "$case_dir/expect"
			for e in "$case_dir"/expect.*; do
				k=${e##*.}
				test "$k" -ge 1 && test "$k" -le "$ninv" ||
					{ echo "stray $e"; false; }
			done
		fi
	'

	n=0
	while IFS= read -r line || test -n "$line"; do
		case $line in
		''|'#'*) continue ;;
		esac
		n=$((n + 1))
		o=$W/$n
		tag="$c/$n [$line]"
		expect=$case_dir/expect.$n
		test "$ninv" = 1 && test -f "$case_dir/expect" && expect=$case_dir/expect
		(set -f; write_configs "$case_dir" "$o.configs" $line)

		test_expect_success "$tag: fixture: every file compiles silently" '
			cat "$o.configs"
			cd "$W/tree"
			compile_configs "$o.configs"
		'

		test_expect_success "$tag: fixture: $(basename "$expect") is sorted, well formed, points at real lines" '
			test -f "$expect"
			sort -c -u "$expect"
			if grep -v "$KEY_RE" "$expect"; then
				echo "^ malformed keys"
				false
			fi
			cd "$W/tree"
			while IFS= read -r key; do
				parse_key "$key"
				test -f "$k_file" || { echo "$k_file: no such file"; false; }
				if test "$k_kind" = missing; then
					u=$(first_use "$k_file" "$k_what")
					test "$u" = "$k_line" ||
						{ echo "$key: first use of $k_what is on line $u"; false; }
				else
					include_at "$k_file" "$k_line" "$k_spelling"
				fi
			done <"$expect"
		'

		i=0
		while IFS= read -r key; do
			i=$((i + 1))
			test_expect_success "$tag: fixture: applied by hand, \"$key\" compiles" '
				fresh "$case_dir" "$o.hand.$i"
				cd "$o.hand.$i"
				apply_finding "$key" "$case_dir/apply"
				compile_configs "$o.configs"
			'
			if test -n "$(fallout_of "$key" "$case_dir/apply")"; then
				test_expect_success "$tag: fixture: without its fallout, \"$key\" breaks a file" '
					fresh "$case_dir" "$o.nofall.$i"
					cd "$o.nofall.$i"
					apply_finding "$key" "$case_dir/apply" nofallout
					some_config_fails "$o.configs"
				'
			fi
		done <"$expect"

		test_expect_success "$tag: check: the findings of $(basename "$expect"), exit $(test -s "$expect" && echo 1 || echo 0)" '
			cd "$W/tree"
			set -f; set -- $line; set +f
			rc=0
			hdrslim check "$@" >"$o.out" 2>"$o.err" || rc=$?
			check_keys <"$o.out" >"$o.keys"
			show "$o.out" "$o.err"
			test_cmp "$expect" "$o.keys"
			want=0
			test -s "$expect" && want=1
			test "$rc" = "$want" || { echo "exit status $rc, wanted $want"; false; }
		'

		test_expect_success "$tag: check --json: well formed, same findings and exit status" '
			cd "$W/tree"
			set -f; set -- $line; set +f
			rc=0
			hdrslim check --json "$@" >"$o.json" 2>"$o.json.err" || rc=$?
			show "$o.json" "$o.json.err"
			json_flat <"$o.json" >"$o.flat"
			nf=$(jcount "$o.flat")
			j=0
			: >"$o.json.keys.raw"
			while test $j -lt $nf; do
				for f in file line kind; do
					test -n "$(jget "$o.flat" "$j.$f")" ||
						{ echo "finding $j has no \"$f\""; false; }
				done
				json_key "$o.flat" $j >>"$o.json.keys.raw"
				j=$((j + 1))
			done
			sort "$o.json.keys.raw" >"$o.json.keys"
			test_cmp "$expect" "$o.json.keys"
			want=0
			test -s "$expect" && want=1
			test "$rc" = "$want" || { echo "exit status $rc, wanted $want"; false; }
		'

		if test -f "$case_dir/apply" && grep -q " -> fallout " "$case_dir/apply"; then
			test_expect_success "$tag: check --json: fallout as in apply" '
				nf=$(jcount "$o.flat")
				j=0
				while test $j -lt $nf; do
					key=$(json_key "$o.flat" $j)
					json_actions "$o.flat" $j >"$o.json.actions"
					fallout_of "$key" "$o.json.actions" >"$o.fall.got"
					fallout_of "$key" "$case_dir/apply" >"$o.fall.want"
					echo "$key:"
					test_cmp "$o.fall.want" "$o.fall.got"
					j=$((j + 1))
				done
			'
		fi

		test_expect_success "$tag: check --json: each suggestion applied keeps every file compiling" '
			test -s "$o.flat"
			nf=$(jcount "$o.flat")
			fails=0
			j=0
			while test $j -lt $nf; do
				key=$(json_key "$o.flat" $j)
				json_actions "$o.flat" $j >"$o.json.actions.$j"
				echo "== finding $j: $key"
				cat "$o.json.actions.$j"
				fresh "$case_dir" "$o.json.$j"
				(cd "$o.json.$j" &&
				 apply_finding "$key" "$o.json.actions.$j" &&
				 compile_configs "$o.configs") || fails=$((fails + 1))
				j=$((j + 1))
			done
			test "$fails" = 0 || { echo "$fails finding(s) break the build"; false; }
		'

		case $line in
		*--kinds*) ;;
		*)
			test_expect_success "$tag: check --kinds=unused: only the unused findings" '
				cd "$W/tree"
				set -f; set -- $line; set +f
				rc=0
				hdrslim check --kinds=unused "$@" >"$o.unused.out" 2>"$o.unused.err" || rc=$?
				check_keys <"$o.unused.out" >"$o.unused.keys"
				{ grep ": unused: " "$expect" || :; } >"$o.unused.want"
				show "$o.unused.out" "$o.unused.err"
				test_cmp "$o.unused.want" "$o.unused.keys"
				want=0
				test -s "$o.unused.want" && want=1
				test "$rc" = "$want" || { echo "exit status $rc, wanted $want"; false; }
			'
			;;
		esac
	done <"$case_dir/cmd"

	# keep: includes that must not be reported unused; gcc must need them
	# in the union of the configurations of the first invocation.
	if test -f "$case_dir/keep"; then
		first=$(grep -v -e '^#' -e '^[[:space:]]*$' "$case_dir/cmd" | head -n 1)
		(set -f; write_configs "$case_dir" "$W/keep.configs" $first)
		k=0
		grep -v -e '^#' -e '^[[:space:]]*$' "$case_dir/keep" >"$W/keep.list"
		while IFS= read -r kline; do
			k=$((k + 1))
			key=${kline%% -> *}
			test_expect_success "$c: fixture: keep: without \"$kline\" gcc fails" '
				fresh "$case_dir" "$W/keep.$k"
				cd "$W/keep.$k"
				printf "%s\n" "$kline" >"$W/keep.$k.actions"
				apply_finding "$key" "$W/keep.$k.actions"
				some_config_fails "$W/keep.configs"
			'
		done <"$W/keep.list"
	fi

	if test -f "$case_dir/apply"; then
		test_expect_success "$c: fixture: every apply entry belongs to an expected finding" '
			grep -v -e "^#" -e "^[[:space:]]*\$" "$case_dir/apply" |
				sed "s/ -> .*//" | sort -u >"$W/apply.keys"
			cat "$case_dir"/expect* | sort -u >"$W/all.keys"
			comm -23 "$W/apply.keys" "$W/all.keys" >"$W/apply.stray"
			test_must_be_empty "$W/apply.stray"
		'
	fi
done

# ---- things checked once rather than per case ---------------------------

RN=$CHECK/redundant-natural
UI=$CHECK/unused-include

test_expect_success 'FILE arguments: only the named files, relative to the current directory' '
	fresh "$RN" rn
	echo "kernel/signal.c:1: redundant: #include <linux/sched.h>" >expect.rn
	rc=0
	hdrslim check -I "$PWD/rn/include" rn rn/kernel/signal.c >out.rn || rc=$?
	check_keys <out.rn >keys.rn
	test_cmp expect.rn keys.rn
	test "$rc" = 1
	rc=0
	hdrslim check -I "$PWD/rn/include" rn rn/kernel/exit.c >out.rn2 || rc=$?
	check_keys <out.rn2 >keys.rn2
	test_must_be_empty keys.rn2
	test "$rc" = 0
'

test_expect_success 'FILE arguments: a header is checked too' '
	fresh "$UI" ui
	echo "include/linux/sched.h:4: unused: #include <linux/capability.h>" >expect.ui
	(cd ui/include && hdrslim check -I "$TRASH_DIRECTORY/ui/include" .. linux/sched.h) >out.ui || :
	check_keys <out.ui >keys.ui
	test_cmp expect.ui keys.ui
'

# json_file_lines FILE PATH: the findings of `check --json` output FILE
# about PATH, one per line, for comparing two runs.
json_file_lines () {
	grep '^ *{"file": ' "$1" | sed 's/^ *//; s/,$//' | grep "^{\"file\": \"$2\"" || :
}

# (not "missing": under the minimal policy it comes from other files' findings)
test_expect_success 'FILE arguments: a .c file named alone gets its findings of the whole-tree run' '
	kinds=unused,replaceable,redundant,forward-declarable &&
	for c in $(cd "$CHECK" && ls); do
		fresh "$CHECK/$c" alone.$c &&
		(cd alone.$c && hdrslim check --json --kinds=$kinds -I include . >../all.$c.json 2>/dev/null; test $? -le 1) || return 1
		for f in $(cd alone.$c && find . -name "*.c" | sed "s|^\./||"); do
			(cd alone.$c && hdrslim check --json --kinds=$kinds --stats -I include . "$f" >../one.json 2>../one.err; test $? -le 1) &&
			json_file_lines all.$c.json "$f" >want &&
			json_file_lines one.json "$f" >got &&
			test_cmp want got || return 1
		done
	done
'

test_expect_success 'FILE arguments: a .c file nothing includes is read with its closure only; one a macro names for an #include is not' '
	mkdir -p inc/include &&
	printf "#define X 1\n" >inc/include/x.h &&
	printf "#define Y 2\n" >inc/include/y.h &&
	printf "#include <x.h>\n#include <y.h>\nstatic int b = Y;\n" >inc/b.c &&
	printf "#include \"b.c\"\nint a = X + b;\n" >inc/a.c &&
	printf "#include <y.h>\nint c = Y;\n" >inc/c.c &&
	(cd inc && hdrslim check --json --stats -nostdinc -I include . c.c >../c.json 2>../c.err; test $? -le 1) &&
	test_grep "stats: scope: 2 files" c.err &&
	(cd inc && hdrslim check --json --stats -I include . b.c >../b.json 2>../b.err; test $? = 1) &&
	test_grep -v "stats: scope" b.err &&
	test_grep "\"file\": \"b.c\", \"line\": 1, \"include\": \"<x.h>\", \"kind\": \"unused\"" b.json &&
	test_grep "\"fallout\": \[{\"file\": \"a.c\", \"symbols\": \[\"X\"\]" b.json &&
	printf "#define PART \"e.c\"\n#include PART\n" >inc/d.c &&
	printf "static int e;\n" >inc/e.c &&
	(cd inc && hdrslim check --json --stats -nostdinc -I include . e.c >../e.json 2>../e.err; test $? -le 1) &&
	test_grep -v "stats: scope" e.err
'

test_expect_success 'FILE arguments: a .c file nothing includes: the cache tells which files need reading, and keeps the rest' '
	rm -rf sc && mkdir -p sc/include &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		printf "#define X$i $i\n" >sc/include/x$i.h &&
		printf "#include <x$i.h>\nint v$i = X$i;\n" >sc/c$i.c || return 1
	done &&
	printf "#include \"c3.c\"\n" >sc/c11.c &&
	XDG_CACHE_HOME="$PWD/sccache" && export XDG_CACHE_HOME &&
	(cd sc && hdrslim cost --stats -nostdinc -I include . >/dev/null 2>../sc1.err) &&
	test_grep " 21 lexed, 0 from cache" sc1.err &&
	# c5.c, x5.h, and c11.c: the only file whose cache entry says it may
	# include a .c file
	(cd sc && hdrslim check --json --stats -nostdinc -I include . c5.c >../sc.json 2>../sc2.err; test $? -le 1) &&
	test_grep "stats: scope: 2 files" sc2.err &&
	test_grep " 0 lexed, 3 from cache" sc2.err &&
	(cd sc && hdrslim cost --stats -nostdinc -I include . >/dev/null 2>../sc3.err) &&
	test_grep " 0 lexed, 21 from cache" sc3.err &&
	(cd sc && hdrslim check --json --stats -nostdinc -I include . c3.c >../sc.json 2>../sc4.err; test $? -le 1) &&
	test_grep -v "stats: scope" sc4.err &&
	# a damaged entry head (its flags and their complement disagree) reads
	# as "may include a .c file": c7.c is read too
	main=$(ls sccache/hdrslim/*.facts) &&
	at=$(grep -boa "c7\.c" "$main" | head -n 1 | cut -d: -f1) &&
	printf "\001" | dd of="$main" bs=1 seek=$((at - 1)) conv=notrunc 2>/dev/null &&
	(cd sc && hdrslim check --json --stats -nostdinc -I include . c5.c >../sc.json 2>../sc5.err; test $? -le 1) &&
	test_grep "stats: scope: 2 files" sc5.err &&
	test_grep " 0 lexed, 4 from cache" sc5.err
'

# The symbol facts are made on several threads, and the names they
# provide are indexed as they come: ids must follow the files' order, not
# the threads', and a cached run must read what a computing run made.
test_expect_success 'the findings do not depend on the threads, nor on the symbol facts being cached' '
	for c in $(cd "$CHECK" && ls); do
		fresh "$CHECK/$c" thr.$c &&
		(cd thr.$c && XDG_CACHE_HOME="$TRASH_DIRECTORY/thr1.$c" hdrslim check --json -j1 -I include . \
			>../thr1.json 2>/dev/null; test $? -le 1) &&
		test -s thr1.json || return 1
		for j in 2 5; do
			(cd thr.$c && XDG_CACHE_HOME="$TRASH_DIRECTORY/thr$j.$c" hdrslim check --json --stats -j$j \
				-I include . >../thrj.json 2>../thrj.err; test $? -le 1) &&
			test_grep "symbol facts: 0 from cache" thrj.err &&
			test_cmp thr1.json thrj.json &&
			(cd thr.$c && XDG_CACHE_HOME="$TRASH_DIRECTORY/thr$j.$c" hdrslim check --json --stats -j$j \
				-I include . >../thrj.json 2>../thrj.err; test $? -le 1) &&
			test_grep -v "symbol facts: 0 from cache" thrj.err &&
			test_cmp thr1.json thrj.json || return 1
		done
	done
'

# The first run makes the symbol facts where the cache file will have them
# (an unnamed file, linked into place when saved); a later run that
# changes many files writes a new file with the unchanged entries copied
# in; a damaged block is made again, and the next file has it repaired.
test_expect_success 'the symbols cache: made in place, rewritten with what did not change, a damaged block repaired' '
	rm -rf sy && mkdir -p sy &&
	printf "struct unused_here { int u; };\n" >sy/u.h &&
	i=0 && while test $i -lt 16; do
		printf "#include \"h%d.h\"\n#include \"u.h\"\nint f%d(void) { return G%d; }\n" $i $i $i >sy/c$i.c &&
		printf "#define G%d %d\nstruct s%d { int x; };\n" $i $i $i >sy/h$i.h &&
		i=$((i + 1))
	done &&
	XDG_CACHE_HOME="$PWD/sycache" && export XDG_CACHE_HOME &&
	# a file system without unnamed files (O_TMPFILE) or fallocate saves
	# by copying: then nothing is saved in place, and the rest holds
	(cd sy && hdrslim check --json --stats . >../sy0.json 2>../sy0.err; test $? -eq 1) &&
	rm -rf sycache &&
	if grep -q " 0 saved in place" sy0.err; then k=0; else k=1; fi &&
	run_sy () {
		(cd sy && hdrslim check --json --stats . >../$1.json 2>../$1.err; test $? -eq 1) &&
		test_grep "symbol facts: $2 from cache, $(($3 * k)) saved in place" $1.err &&
		test "$(ls sycache/hdrslim | grep -c tmp)" = 0
	} &&
	run_sy sy1 0 33 &&
	test_grep "\"c0.c\", \"line\": 2, .*\"kind\": \"unused\"" sy1.json &&
	syms=$(ls sycache/hdrslim/*.syms) &&
	run_sy sy2 33 0 &&
	test_cmp sy1.json sy2.json &&
	# half the headers change: more than a journal takes
	i=0 && while test $i -lt 8; do
		printf "#define G%d %d\nstruct s%d { long x; };\n" $i $i $i >sy/h$i.h &&
		i=$((i + 1))
	done &&
	cp "$syms" syms.before &&
	run_sy sy3 25 8 &&
	! cmp -s "$syms" syms.before &&
	test ! -e "$syms.log" &&
	run_sy sy4 33 0 &&
	test_cmp sy3.json sy4.json &&
	(cd sy && hdrslim check --json --no-cache . >../sy5.json; test $? -eq 1) &&
	test_cmp sy3.json sy5.json &&
	# the line of the first name h3.h provides, 8 bytes into the first
	# entry after the block head (32 bytes), after the key "h3.h" padded
	# to 8: the block no longer matches its check
	at=$(grep -boa "h3\.h" "$syms" | head -n 1 | cut -d: -f1) &&
	at=$((at + 8 + 32 + 8)) &&
	printf "\177" | dd of="$syms" bs=1 seek=$at conv=notrunc 2>/dev/null &&
	run_sy sy6 32 0 &&
	test_cmp sy3.json sy6.json &&
	run_sy sy7 33 0 &&
	test_cmp sy3.json sy7.json
'

# An X-macro table (read with an #include inside a struct, like the
# kernel's lsm_hook_defs.h) takes no #include: what it needs from a line
# that goes is its includer's to bring, and gcc agrees once that is done.
test_expect_success 'fallout for an X-macro table goes to the file that reads it inside braces' '
	rm -rf xm && mkdir -p xm/include &&
	printf "struct key { int id; };\n" >xm/include/k.h &&
	printf "#include <k.h>\nint x_count(void);\n" >xm/include/x.h &&
	printf "HOOK(int, check_key, struct key *k)\n" >xm/include/hooks.h &&
	printf "#include <x.h>\nstruct ops {\n#define HOOK(ret, name, ...) ret (*name)(__VA_ARGS__);\n#include <hooks.h>\n#undef HOOK\n};\nint use(struct ops *o) { return o->check_key(0) + x_count(); }\n" >xm/main.c &&
	gcc $CC_FLAGS -Ixm/include xm/main.c &&
	(cd xm && hdrslim check --json -I include . >../xm.json; test $? -eq 1) &&
	test_grep "\"include/x.h\", \"line\": 1, .*\"kind\": \"unused\".*\"fallout\": \[{\"file\": \"main.c\", \"symbols\": \[\"struct key\"\]" xm.json &&
	! grep "\"file\": \"include/hooks.h\"" xm.json &&
	# applied: the line goes, main.c includes k.h at its top
	sed -i 1d xm/include/x.h &&
	sed -i "1i #include <k.h>" xm/main.c &&
	gcc $CC_FLAGS -Ixm/include xm/main.c
'

test_expect_success 'fallout: a file that defines a function keeps the prototype it got through the header' '
	rm -rf mp && mkdir -p mp/include &&
	printf "void tk_warp(void);\n" >mp/include/tk.h &&
	printf "#include <tk.h>\nint tick_count(void);\n" >mp/include/tick.h &&
	printf "#include <tick.h>\nvoid tk_warp(void) {}\nint f(void);\nint f(void) { return tick_count(); }\n" >mp/main.c &&
	gcc $CC_FLAGS -Wmissing-prototypes -Werror -Imp/include mp/main.c &&
	(cd mp && hdrslim check --json -I include . >../mp.json; test $? -eq 1) &&
	test_grep "\"include/tick.h\", \"line\": 1, .*\"kind\": \"unused\".*\"fallout\": \[{\"file\": \"main.c\", \"symbols\": \[\"tk_warp\"\], \"add\": \[\"<tk.h>\"\]" mp.json &&
	# applied with its fallout: -Wmissing-prototypes stays quiet
	sed -i 1d mp/include/tick.h &&
	sed -i "1a #include <tk.h>" mp/main.c &&
	gcc $CC_FLAGS -Wmissing-prototypes -Werror -Imp/include mp/main.c
'

test_expect_success 'names of function pointer parameters are not uses: a header declaring such a name is unused' '
	rm -rf fp && mkdir -p fp/include &&
	printf "#include <stdbool.h>\ntypedef bool (*consume_fn)(void *cookie, unsigned long addr);\n" >fp/include/cb.h &&
	printf "extern unsigned long page;\n" >fp/include/vars.h &&
	printf "#include <cb.h>\n#include <vars.h>\nstruct ops {\n\tvoid (*flush)(unsigned long addr);\n\tint (*map)(void *page, int n);\n};\nint f(int (*cb)(int page));\n" >fp/include/ops.h &&
	printf "#include <ops.h>\nstruct ops o;\n" >fp/a.c &&
	printf "#include <cb.h>\nconsume_fn g;\n" >fp/b.c &&
	gcc $CC_FLAGS -Ifp/include fp/a.c && gcc $CC_FLAGS -Ifp/include fp/b.c &&
	(cd fp && hdrslim symbols include/cb.h include/ops.h >../fp.syms) &&
	test_grep "^provide 2 typedef consume_fn$" fp.syms &&
	! grep -E "^use [0-9]+ (addr|page|cb|n) " fp.syms &&
	(cd fp && hdrslim check -I include . >../fp.out; test $? -eq 1) &&
	test_grep "^include/ops.h:1: unused: #include <cb.h>" fp.out &&
	test_grep "^include/ops.h:2: unused: #include <vars.h>" fp.out &&
	! grep "^b.c:" fp.out &&
	# the compiler agrees: ops.h without both lines, b.c needs cb.h
	sed -i 1,2d fp/include/ops.h &&
	gcc $CC_FLAGS -Ifp/include fp/a.c &&
	sed -i 1d fp/b.c && ! gcc $CC_FLAGS -Ifp/include fp/b.c 2>/dev/null
'

test_expect_success 'an extern variable of a struct type needs no complete type: a forward declaration will do' '
	rm -rf ev && mkdir -p ev/include &&
	printf "struct fops { int (*open)(void); };\n" >ev/include/fops.h &&
	printf "#include <fops.h>\nextern const struct fops kfops;\n" >ev/include/k.h &&
	printf "#include <k.h>\nconst void *p = &kfops;\n" >ev/a.c &&
	gcc $CC_FLAGS -Iev/include ev/a.c &&
	(cd ev && hdrslim check -I include . >../ev.out; test $? -eq 1) &&
	test_grep "^include/k.h:1: forward-declarable: #include <fops.h>" ev.out &&
	# the compiler agrees
	sed -i "1c struct fops;" ev/include/k.h &&
	gcc $CC_FLAGS -Iev/include ev/a.c
'

test_expect_success 'an inline that only passes its pointer parameter on needs no complete type; one that reaches through it does' '
	rm -rf pp && mkdir -p pp/include &&
	printf "struct dentry { int d_flags; };\n" >pp/include/dentry.h &&
	printf "struct inode { int i_mode; };\n" >pp/include/inode.h &&
	printf "struct file { int f_mode; };\n" >pp/include/file.h &&
	# passes d on, compares it, returns it: a declaration will do
	printf "%s\n" "#include <dentry.h>" "int vfs_mknod(struct dentry *, int);" \
		"static inline int vfs_whiteout(struct dentry *d, int m)" \
		"{ return d ? vfs_mknod(d, m) : 0; }" >pp/include/pass.h &&
	# reaches through i: needs struct inode
	printf "%s\n" "#include <inode.h>" \
		"static inline int mode_of(struct inode *i) { return i->i_mode; }" >pp/include/deref.h &&
	# hands f to a macro (or a function declared elsewhere), which may
	# reach through it
	printf "%s\n" "#include <file.h>" "#define file_mode(x) ((x)->f_mode)" \
		"static inline int fmode(struct file *f) { return file_mode(f); }" >pp/include/mac.h &&
	# a local pointer that is only compared
	printf "struct super_block { int s_count; };\n" >pp/include/sb.h &&
	printf "%s\n" "#include <sb.h>" "struct super_block *get_sb(void);" \
		"static inline int has_sb(void) { struct super_block *sb = get_sb(); return sb != 0; }" >pp/include/loc.h &&
	printf "%s\n" "#include <pass.h>" "#include <deref.h>" "#include <mac.h>" "#include <loc.h>" \
		"int use(struct inode *i, struct file *f) { return vfs_whiteout(0, mode_of(i) + fmode(f)) + has_sb(); }" >pp/a.c &&
	gcc $CC_FLAGS -Ipp/include pp/a.c &&
	(cd pp && hdrslim check -I include . >../pp.out; test $? -eq 1) &&
	test_grep "^include/pass.h:1: forward-declarable: #include <dentry.h>" pp.out &&
	test_grep "^include/loc.h:1: forward-declarable: #include <sb.h>" pp.out &&
	! grep "^include/deref.h:" pp.out &&
	! grep "^include/mac.h:" pp.out &&
	# the compiler agrees on all three
	cp -r pp pp2 &&
	sed -i "1c struct dentry;" pp/include/pass.h && sed -i "1c struct super_block;" pp/include/loc.h &&
	gcc $CC_FLAGS -Ipp/include pp/a.c &&
	sed -i "1c struct inode;" pp2/include/deref.h && ! gcc $CC_FLAGS -Ipp2/include pp2/a.c 2>/dev/null &&
	rm -rf pp2 && cp -r pp pp2 &&
	sed -i "1c struct file;" pp2/include/mac.h && ! gcc $CC_FLAGS -Ipp2/include pp2/a.c 2>/dev/null
'

test_expect_success 'a header that names a struct its includer defines only below the include does not rely on the includer' '
	rm -rf ni && mkdir -p ni/include &&
	printf "struct file;\n" >ni/include/early.h &&
	# d.h names struct file in a prototype: something before it must declare it
	printf "%s\n" "int d_tmpfile(struct file *);" "int d_fn(void);" >ni/include/d.h &&
	printf "%s\n" "#include <early.h>" "#include <d.h>" "struct file { int f_mode; };" "int f_fn(void);" >ni/include/f.h &&
	printf "%s\n" "#include <f.h>" "#include <d.h>" "int x(void) { return d_fn() + f_fn(); }" >ni/a.c &&
	gcc $CC_FLAGS -Ini/include ni/a.c &&
	(cd ni && hdrslim check -I include . >../ni.out; test $? -eq 1) &&
	test_grep "^include/f.h:2: unused: #include <d.h>" ni.out &&
	# the compiler agrees
	sed -i 2d ni/include/f.h && gcc $CC_FLAGS -Ini/include ni/a.c &&
	# and one that defines it above the include is relied on
	rm -rf ni2 && mkdir -p ni2/include && cp ni/include/d.h ni2/include/ &&
	printf "%s\n" "struct file { int f_mode; };" "#include <d.h>" "int f_fn(void);" >ni2/include/f.h &&
	printf "%s\n" "#include <f.h>" "int x(void) { return f_fn(); }" >ni2/a.c &&
	(cd ni2 && hdrslim check -I include . >../ni2.out; :) &&
	! grep "^include/f.h:2: unused" ni2.out
'

# An umbrella header (git's cache.h before its split: git-compat-util.h
# first, then a dozen API headers that rely on it): a .c file that uses
# only what some of the API headers declare includes the umbrella
# replaceably.  The suggestion names the compat header first, since the
# API headers need it before them; gcc compiles the file with the
# suggested includes in that order, and not with the API headers alone.
umbrella_tree () {
	rm -rf umb && mkdir umb &&
	guarded_header umb/compat.h 8 "#include <stddef.h>" "#include <stdio.h>" \
		"#define UNUSED __attribute__((unused))" "typedef unsigned long timestamp_t;" &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		guarded_header umb/api$i.h 7 "struct api${i}_state { timestamp_t when; size_t n; };" \
			"int api${i}_run(struct api${i}_state *s);" "#define API${i}_MAX 10" || return 1
	done &&
	{ echo "#ifndef UMBRELLA_H"; echo "#define UMBRELLA_H"; echo "#include \"compat.h\""
	  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "#include \"api$i.h\""; done
	  echo "#endif"; } >umb/umbrella.h &&
	printf '#include "umbrella.h"\nint a(void);\nint a(void) { struct api3_state s = {0}; return api3_run(&s) + API7_MAX; }\n' >umb/a.c &&
	printf '#include "umbrella.h"\nint b(void);\nint b(void) { printf("%%d\\n", API5_MAX); return 0; }\n' >umb/b.c &&
	printf '#include "umbrella.h"\nint u(void);\nint u(void) { UNUSED int k = API9_MAX; return k; }\n' >umb/u.c
}

test_expect_success 'a file using API headers of an umbrella: replaceable, the compat header first; gcc agrees' '
	umbrella_tree &&
	for f in a b u; do gcc -Wall -Werror -fsyntax-only -Iumb umb/$f.c || return 1; done &&
	{ hdrslim check umb >out || test $? = 1; } &&
	grep "^a.c:1: replaceable" out | grep -F "include \"compat.h\", \"api3.h\", \"api7.h\" instead" &&
	grep "^b.c:1: replaceable" out | grep -F "include \"compat.h\", <stdio.h>, \"api5.h\" instead" &&
	grep "^u.c:1: replaceable" out | grep -F "include \"compat.h\", \"api9.h\" instead" &&
	for f in a b u; do
		incs=$(grep "^$f.c:1: replaceable" out | sed "s/.*; include \(.*\) instead$/\1/") &&
		{ echo "$incs" | tr , "\n" | sed "s/^ *//; s/^/#include /"; sed 1d umb/$f.c; } >umb/$f.new.c &&
		gcc -Wall -Werror -fsyntax-only -Iumb umb/$f.new.c || return 1
		# the API headers alone do not compile: the order is what makes it
		{ echo "$incs" | tr , "\n" | sed "s/^ *//; s/^/#include /" | grep -v compat.h; sed 1d umb/$f.c; } >umb/$f.bad.c &&
		! gcc -fsyntax-only -Iumb umb/$f.bad.c 2>/dev/null || return 1
		rm umb/$f.new.c umb/$f.bad.c
	done
'

test_expect_success 'an API header that stays, reached another way, keeps its need met' '
	umbrella_tree &&
	printf "#include \"umbrella.h\"\n#include \"api2.h\"\nint c(void);\nint c(void) { return API4_MAX + api2_run(0); }\n" >umb/c.c &&
	gcc -fsyntax-only -Iumb umb/c.c &&
	{ hdrslim check umb >out || test $? = 1; } &&
	incs=$(grep "^c.c:1: replaceable" out | sed "s/.*; include \(.*\) instead$/\1/") &&
	echo "$incs" | grep -F "\"compat.h\"" &&
	{ echo "$incs" | tr , "\n" | sed "s/^ *//; s/^/#include /"; sed 1d umb/c.c; } >umb/c.new.c &&
	gcc -Wall -Werror -fsyntax-only -Iumb umb/c.new.c
'

test_expect_success 'TREE defaults to the current directory' '
	fresh "$RN" rn3
	(cd rn3 && hdrslim check -I include) >out.rn3 || :
	check_keys <out.rn3 >keys.rn3
	test_cmp "$RN/expect" keys.rn3
'

test_expect_success 'a nonexistent TREE: exit 2' '
	test_expect_code 2 hdrslim check no-such-tree
'

test_expect_success 'a nonexistent FILE: exit 2' '
	fresh "$RN" rn4
	test_expect_code 2 hdrslim check rn4 rn4/kernel/no-such-file.c
'

test_expect_success 'an unknown --kinds or --policy value: exit 2' '
	fresh "$RN" rn5
	test_expect_code 2 hdrslim check --kinds=bogus rn5 &&
	test_expect_code 2 hdrslim check --policy=bogus rn5
'

test_expect_success 'nothing was written into the fixture trees' '
	(cd "$CHECK" && find . -type f | sort | xargs cksum) >check.after
	test_cmp check.before check.after
'

test_done
