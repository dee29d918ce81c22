#!/bin/bash
# t19-docs.sh: the man page, `hdrslim help COMMAND`, the bash completion
# and `make install` say the same as the binary.
#
#   - every command `hdrslim --help` lists has its section in doc/hdrslim.1;
#   - `hdrslim help CMD` prints what `hdrslim CMD --help` prints;
#   - every option CMD's help lists is in CMD's section of the man page,
#     every configuration option in its CONFIGURATION section;
#   - every long option the sources compare an argument with is in some
#     command's help (an option nobody can find is an undocumented one);
#   - man renders the page without a warning;
#   - the completion offers a command's own options;
#   - make install DESTDIR=... PREFIX=... puts the three files in place.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
MAN=$ROOT/doc/hdrslim.1

commands () {
	hdrslim --help | sed -n 's/^  hdrslim \([a-z-]*\).*/\1/p'
}

# the options a help text lists: the words starting with - in its option
# lines, cut before = or [ (--kinds=K,... is --kinds)
help_options () {
	sed -n '/^options:$/,/^$/p;/^configuration/,/^$/p' |
		grep -o -- '\(^\|[ ,]\)--\?[A-Za-z][A-Za-z-]*' | sed 's/^[ ,]*//' | sort -u
}

# the text of the man page's section for a command (or a .SH section),
# with roff's \- as -
man_section () {
	awk -v want="$1" '
		/^\.S[SH] / { on = ($2 == want) ; next }
		on' "$MAN" | sed 's/\\-/-/g; s/\\f[BIPR]//g'
}

test_expect_success 'every command has its section in the man page' '
	commands >cmds &&
	test $(wc -l <cmds) -ge 10 &&
	while read c; do
		grep -q "^\.SS $c " "$MAN" || { echo "no section for $c"; return 1; }
	done <cmds
'

test_expect_success 'hdrslim help CMD is hdrslim CMD --help' '
	while read c; do
		hdrslim help "$c" >a && hdrslim "$c" --help >b && test_cmp a b &&
		head -1 a | grep -q "^usage: hdrslim $c " || { echo "help of $c"; return 1; }
	done <cmds
'

test_expect_success 'every option a command lists is in its section of the man page' '
	while read c; do
		hdrslim help "$c" | sed -n "/^options:$/,/^$/p" | help_options >opts &&
		man_section "$c" >sect &&
		while read o; do
			grep -q -e "$o" sect || { echo "$c: $o not in the man page"; return 1; }
		done <opts
	done <cmds &&
	hdrslim --help | sed -n "/^configuration/,/^$/p" | help_options >copts &&
	test $(wc -l <copts) -ge 15 &&
	man_section CONFIGURATION >csect &&
	while read o; do
		grep -q -e "$o" csect || { echo "configuration: $o not in the man page"; return 1; }
	done <copts
'

test_expect_success 'every long option the sources test for is in some help' '
	for c in $(cat cmds); do hdrslim help "$c"; done | help_options >all &&
	# string literals "--name" compared with arguments; git.c passes
	# options to git (edit.c: to diff), config.c lists gcc flags; the rest are spatch'"'"'s
	# (cmd_dead.c) and make'"'"'s (MAKEFLAGS, verify.c)
	grep -ho "\"--[a-z][a-z0-9-]*[a-z0-9]=\?\"" $(ls "$ROOT"/src/*.c | grep -v -e /git.c -e /config.c -e /edit.c) |
		sed "s/^\"//; s/=\?\"$//" |
		grep -vx -e --help -e --version -e --sp-file -e --very-quiet -e --no-includes \
			-e --jobserver-auth -e --jobserver-fds | sort -u >src-opts &&
	test $(wc -l <src-opts) -ge 20 &&
	while read o; do
		grep -qx -e "$o" all || { echo "$o is parsed but in no help"; return 1; }
	done <src-opts
'

test_expect_success 'help of something that is not a command: exit 2' '
	test_expect_code 2 hdrslim help no-such-command
'

command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1 && test_set_prereq MAN

test_expect_success MAN 'man renders the page without a warning' '
	MANWIDTH=80 man --warnings -l "$MAN" >page 2>warn &&
	test_must_be_empty warn &&
	grep -q "hdrslim - find and remove header bloat" page
'

test_expect_success 'the bash completion offers commands, then the command'"'"'s own options' '
	mkdir -p bin && ln -sf "$HDRSLIM" bin/hdrslim &&
	PATH=$PWD/bin:$PATH bash -c "
		. \"$ROOT/doc/hdrslim.bash\"
		COMP_WORDS=(hdrslim sl); COMP_CWORD=1; _hdrslim; echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(hdrslim slim --max); COMP_CWORD=2; _hdrslim; echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(hdrslim check --max); COMP_CWORD=2; _hdrslim; echo \"\${COMPREPLY[*]}\"
	" >comp &&
	sed -n 1p comp | grep -qx "slim" &&
	sed -n 2p comp | grep -qw -- "--max-fallout" &&
	! sed -n 3p comp | grep -qw -- "--max-fallout" &&
	sed -n 3p comp | grep -qw -- "--max-diags"
'

test_expect_success 'make install puts the binary, the man page and the completion under DESTDIR/PREFIX' '
	make -s -C "$ROOT" install DESTDIR="$PWD/dest" PREFIX=/opt/hs >/dev/null &&
	test -x dest/opt/hs/bin/hdrslim &&
	cmp "$MAN" dest/opt/hs/share/man/man1/hdrslim.1 &&
	cmp "$ROOT/doc/hdrslim.bash" dest/opt/hs/share/bash-completion/completions/hdrslim &&
	dest/opt/hs/bin/hdrslim help slim | grep -q -- --max-fallout
'

test_done
