# lib-peer.sh — the pieces of hdrslim's comparison with clang-include-cleaner
# that scripts/bench-peer and scripts/corpus share. Sourced, not run.
#
# A comparison works in a directory WORK holding
#   WORK/files       the TUs, one path a line, relative to the source tree SRC
#   WORK/cic/I.out   clang-include-cleaner's output for the I-th TU (0-based),
#   WORK/cic/I.err   its stderr and
#   WORK/cic/I.rc    its exit status (peer_run writes these three)
#   WORK/TAG.json    `hdrslim check --json` output of one run (TAG: union, exact)
#
# clang-include-cleaner runs once per file (its --print accepts a single input
# file), JOBS files at a time, from SRC, as
#   CIC -p DBDIR --print=changes FILE
# and its removals are its "- <x.h> @Line:N" lines; hdrslim's removals are
# each finding's suggestion.remove. Headers are compared by their spelling
# with <> and "" stripped.

# peer_run CIC DBDIR SRC WORK JOBS: run clang-include-cleaner on every file
# of WORK/files (under nice -n ${PEER_NICE:-0}), writing WORK/cic/.
peer_run() {
	local cic=$1 db=$2 src=$3 work=$4 jobs=$5
	mkdir -p "$work/cic" || return 1
	cat >"$work/cic1" <<'EOF'
#!/bin/sh
# cic1 CIC DBDIR OUTDIR INDEX FILE
"$1" -p "$2" --print=changes "$5" >"$3/$4.out" 2>"$3/$4.err"
echo $? >"$3/$4.rc"
EOF
	chmod +x "$work/cic1" || return 1
	local i=0 f
	while IFS= read -r f; do
		printf '%s\0%s\0' "$i" "$src/$f"
		i=$((i + 1))
	done <"$work/files" |
		(cd "$src" && nice -n "${PEER_NICE:-0}" xargs -0 -n 2 -P "$jobs" "$work/cic1" "$cic" "$db" "$work/cic")
}

# peer_failed WORK: how many files clang-include-cleaner failed on (exit != 0).
peer_failed() {
	local work=$1 i=0 n=0 rc f
	while IFS= read -r f; do
		rc=$(cat "$work/cic/$i.rc" 2>/dev/null || echo 127)
		[ "$rc" = 0 ] || n=$((n + 1))
		i=$((i + 1))
	done <"$work/files"
	echo "$n"
}

# peer_findings WORK: clang-include-cleaner's removals as findings JSON for
# scripts/precision (kind "unused", file relative to SRC, line, include), on
# stdout; files it failed on are left out.
peer_findings() {
	python3 - "$1" <<'EOF'
import json, re, sys
work = sys.argv[1]
files = open(work + '/files').read().split('\n')
rm = re.compile(r'^- (\S+) @Line:(\d+)\s*$')
out = []
for i, f in enumerate(x for x in files if x):
    try:
        if open('%s/cic/%d.rc' % (work, i)).read().strip() != '0':
            continue
        lines = open('%s/cic/%d.out' % (work, i), errors='replace').readlines()
    except OSError:
        continue
    for line in lines:
        m = rm.match(line)
        if m:
            out.append({'kind': 'unused', 'file': f, 'line': int(m.group(2)),
                        'include': m.group(1), 'suggestion': {'remove': m.group(1)}})
json.dump(out, sys.stdout, indent=1)
EOF
}

# peer_agreement WORK TAG SRC EXAMPLES: agreement on removals between
# clang-include-cleaner and WORK/TAG.json, over the files of WORK/files that
# clang-include-cleaner analysed (exit 0); EXAMPLES disagreement examples per
# class. The last line of the counts is
#   removals: both B, only-clang C, only-hdrslim H
peer_agreement() {
	python3 - "$1" "$2" "$3" "$4" <<'EOF'
import json, os, re, sys, random
work, tag, src, nex = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
files = [x for x in open(work + '/files').read().split('\n') if x]

def norm(s):
    s = s.strip()
    return s[1:-1] if len(s) >= 2 and s[0] in '<"' and s[-1] in '>"' else s

ok = set()
clang = {}                      # (file, header) -> [lines]
rm = re.compile(r'^- (\S+) @Line:(\d+)\s*$')
for i, f in enumerate(files):
    try:
        if open('%s/cic/%d.rc' % (work, i)).read().strip() != '0':
            continue
    except OSError:
        continue
    ok.add(f)
    for line in open('%s/cic/%d.out' % (work, i), errors='replace'):
        m = rm.match(line)
        if m:
            clang.setdefault((f, norm(m.group(1))), []).append(int(m.group(2)))

hs = {}                         # (file, header) -> [(line, kind, extra)]
for x in json.load(open('%s/%s.json' % (work, tag))):
    f = os.path.relpath(os.path.join(src, x['file']), src) if not x['file'].startswith('/') \
        else os.path.relpath(x['file'], src)
    r = (x.get('suggestion') or {}).get('remove')
    if f not in ok or not r:
        continue
    extra = ''
    if x['kind'] == 'redundant' and x.get('via'):
        extra = 'via ' + ' -> '.join(x['via'])
    elif x['kind'] == 'replaceable':
        extra = 'add ' + ', '.join((x.get('suggestion') or {}).get('add') or [])
    hs.setdefault((f, norm(r)), []).append((x['line'], x['kind'], extra))

both = sorted(set(clang) & set(hs))
oc = sorted(set(clang) - set(hs))
oh = sorted(set(hs) - set(clang))
def kinds(keys):
    c = {}
    for k in keys:
        kd = hs[k][0][1]
        c[kd] = c.get(kd, 0) + 1
    return ', '.join('%s %d' % kv for kv in sorted(c.items(), key=lambda kv: -kv[1])) or '-'
print('  files compared: %d of %d%s' % (len(ok), len(files),
      ' (clang-include-cleaner failed on the others)' if len(ok) < len(files) else ''))
print('  removal pairs: clang-include-cleaner %d, hdrslim %d' % (len(clang), len(hs)))
print('  hdrslim kinds: both: %s; only-hdrslim: %s' % (kinds(both), kinds(oh)))
print('removals: both %d, only-clang %d, only-hdrslim %d' % (len(both), len(oc), len(oh)))
rnd = random.Random(1)
def sample(keys):
    return sorted(rnd.sample(keys, min(nex, len(keys))))
if oc:
    print('  examples, only clang-include-cleaner:')
    for f, h in sample(oc):
        print('    %s:%s: %s' % (f, ','.join(map(str, clang[(f, h)])), h))
if oh:
    print('  examples, only hdrslim:')
    for f, h in sample(oh):
        for line, kind, extra in hs[(f, h)][:1]:
            print('    %s:%d: %s %s%s' % (f, line, kind, h, ('  (' + extra + ')') if extra else ''))
    unused = [k for k in oh if hs[k][0][1] == 'unused']
    if unused and len(unused) < len(oh):
        print('  examples, only hdrslim, kind unused:')
        for f, h in sample(unused):
            print('    %s:%d: unused %s' % (f, hs[(f, h)][0][0], h))
EOF
}
