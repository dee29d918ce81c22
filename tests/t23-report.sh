#!/bin/bash
# t23-report.sh: `hdrslim report` writes one self-contained HTML page; a
# real browser (headless Chromium) draws it, and what it draws is checked
# against `cost --json`, `check`, `split --json` and, for what each
# #include line brings, against gcc -M on a copy of the tree with that
# line deleted.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"

EX=$ROOT/examples/sched
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
test -n "$CHROMIUM" && test_set_prereq CHROMIUM

# dom URL-FRAGMENT OUT: the page's DOM once its script has run
dom () {
	"$CHROMIUM" --headless --no-sandbox --disable-gpu --window-size=1400,1000 \
		--virtual-time-budget=5000 --dump-dom "file://$PWD/r.html$1" 2>/dev/null >"$2"
}

# attrs FILE SELECTOR-CLASS ATTR...: one line per element whose class
# attribute is exactly the class, its attributes' values tab-separated
attrs () {
	python3 - "$@" <<'PY'
import sys, html.parser
path, cls, names = sys.argv[1], sys.argv[2], sys.argv[3:]
class P(html.parser.HTMLParser):
    def handle_starttag(self, tag, a):
        a = dict(a)
        if a.get("class") == cls or (cls.startswith("[") and cls[1:-1] in a):
            print("\t".join(a.get(n) or "" for n in names))
P().feed(open(path).read())
PY
}

test_expect_success 'report writes one page, with nothing to fetch' '
	hdrslim report "$EX" -o r.html --propose include/linux/sched.h 2>err &&
	grep "r.html: 16 headers" err &&
	test -s r.html &&
	! grep -i -E "<(script|link|img)[^>]* (src|href)=" r.html &&
	! grep -E "https?://" r.html
'

test_expect_success 'bad use: no -o, two trees, a tree that is not there' '
	test_expect_code 2 hdrslim report "$EX" 2>err &&
	grep "report: say where the page goes" err &&
	test_expect_code 2 hdrslim report "$EX" "$EX" -o x.html 2>err &&
	grep "one TREE at most" err &&
	! hdrslim report /nonexistent/tree -o x.html 2>err &&
	test -s err && ! test -e x.html
'

test_expect_success CHROMIUM 'the treemap has a box per header, sized by cost --json added' '
	dom "" root.html &&
	attrs root.html "box hdr" data-path data-value | sort >boxes &&
	hdrslim cost --json "$EX" >cost.json &&
	python3 -c "
import json
for h in json.load(open(\"cost.json\"))[\"headers\"]:
    if h[\"added\"] > 0: print(h[\"path\"] + \"\t\" + str(h[\"added\"]))
" | sort >expect &&
	test_cmp expect boxes &&
	test $(wc -l <boxes) -ge 15
'

test_expect_success CHROMIUM 'switched to build_lines, the boxes carry build_lines' '
	dom "#m=build_lines" bl.html &&
	attrs bl.html "box hdr" data-path data-value | sort >boxes &&
	python3 -c "
import json
for h in json.load(open(\"cost.json\"))[\"headers\"]:
    if h[\"build_lines\"] > 0: print(h[\"path\"] + \"\t\" + str(h[\"build_lines\"]))
" | sort >expect &&
	test_cmp expect boxes
'

test_expect_success CHROMIUM 'a header page shows cost --json figures' '
	dom "#h=include/linux/sched.h" page.html &&
	attrs page.html "[data-metric]" data-metric >names &&
	python3 - <<-\EOF >shown
	import html.parser
	class P(html.parser.HTMLParser):
	    key = None
	    def handle_starttag(self, tag, a):
	        self.key = dict(a).get("data-metric")
	    def handle_data(self, d):
	        if self.key: print(self.key + " " + d); self.key = None
	P().feed(open("page.html").read())
	EOF
	python3 -c "
import json
h = [h for h in json.load(open(\"cost.json\"))[\"headers\"] if h[\"path\"] == \"include/linux/sched.h\"][0]
for k in (\"lines\", \"direct_includers\", \"tus\", \"prevalence\", \"expanded\", \"added\", \"build_lines\"):
    print(k, \"%.6f\" % h[k] if k == \"prevalence\" else h[k])
" >expect &&
	grep -v "^alone_" shown >got &&
	test_cmp expect got
'

# the headers gcc -M lists for a file that includes only HEADER, and
# their physical lines summed (HEADER's own included)
alone_lines () {
	printf "#include <%s>\n" "$2" >alone.c &&
	gcc -M -I"$1/include" alone.c | sed -e "s/^[^:]*://" -e "s/\\\\$//" | tr " " "\n" |
	grep -v -e "^$" -e "alone.c" -e "stdc-predef.h" | sort -u |
	while read -r f; do cat "$f"; done | wc -l
}

test_expect_success CHROMIUM 'alone: the closure gcc -M lists; each #include line brings what deleting it takes out' '
	grep "^alone_lines " shown >al &&
	echo "alone_lines $(alone_lines "$EX" linux/sched.h)" >expect &&
	test_cmp expect al &&
	attrs page.html "[data-brings]" data-to data-brings >rows &&
	test $(wc -l <rows) -eq 10 &&
	total=$(alone_lines "$EX" linux/sched.h) &&
	nonzero=0 &&
	while IFS="	" read -r to brings; do
		rm -rf copy && cp -r "$EX" copy &&
		inc=${to#include/} &&
		sed -i "\\|^#include <$inc>|d" copy/include/linux/sched.h &&
		! cmp -s copy/include/linux/sched.h "$EX/include/linux/sched.h" &&
		after=$(alone_lines copy linux/sched.h) &&
		echo "$to $((total - after - 1))" >>expect.b # the deleted line itself &&
		echo "$to $brings" >>got.b &&
		if test "$brings" -gt 0; then nonzero=$((nonzero + 1)); fi
	done <rows &&
	test_cmp expect.b got.b &&
	test $nonzero -ge 5
'

test_expect_success CHROMIUM 'the findings on the page are check'"'"'s about that header' '
	(hdrslim check "$EX" "$EX/include/linux/sched.h" || test $? = 1) >check.out &&
	grep -E "^include/linux/sched.h:[0-9]+: [a-z-]+:" check.out | grep -v ": note:" |
		sed -E "s/^include\/linux\/sched.h:([0-9]+): ([a-z-]+):.*/\1 \2/" >expect &&
	attrs page.html "[data-kind]" data-kind >kinds &&
	python3 - <<-\EOF >got
	import html.parser
	class P(html.parser.HTMLParser):
	    row = None
	    def handle_starttag(self, tag, a):
	        a = dict(a)
	        if "data-kind" in a: self.row = [a["data-kind"]]
	        elif self.row is not None and tag == "td" and a.get("class") == "n": self.want = True
	    def handle_data(self, d):
	        if self.row is not None and getattr(self, "want", False):
	            print(d + " " + self.row[0]); self.row = None; self.want = False
	P().feed(open("page.html").read())
	EOF
	test_cmp expect got &&
	test -s expect
'

test_expect_success CHROMIUM 'split'"'"'s proposal is on the page with its savings' '
	hdrslim split --json "$EX" include/linux/sched.h >split.json &&
	python3 -c "
import json
for g in json.load(open(\"split.json\"))[\"groups\"]: print(g[\"saved_build_lines\"])
" >expect &&
	attrs page.html "[data-saved]" data-saved >got &&
	test_cmp expect got && test -s got &&
	grep -q "slim: where its weight comes from" page.html
'

test_expect_success CHROMIUM 'the include chain on the page is one gcc follows' '
	python3 - <<-\EOF >chain
	import html.parser
	class P(html.parser.HTMLParser):
	    on = False
	    text = ""
	    def handle_starttag(self, tag, a):
	        if dict(a).get("data-chain"): self.on = True; print("from " + dict(a)["data-chain"])
	        if self.on and tag == "li": self.text = ""
	    def handle_endtag(self, tag):
	        if self.on and tag == "li": print(self.text)
	        if tag == "ol": self.on = False
	    def handle_data(self, d):
	        if self.on: self.text += d
	P().feed(open("page.html").read())
	EOF
	test $(wc -l <chain) -ge 2 &&
	from=$(sed -n "1s/^from //p" chain) &&
	(cd "$EX" && gcc -M -Iinclude "$from" | grep -q "include/linux/sched.h") &&
	sed 1d chain | while read -r step; do
		file=${step%%:*} && rest=${step#*:} && line=${rest%%:*} &&
		target=${step##* } && inc=${target#include/} &&
		sed -n "${line}p" "$EX/$file" | grep -q "#include [<\"]\\(.*/\\)\\?${inc##*/}[>\"]"
	done &&
	tail -1 chain | grep -q " include/linux/sched.h$"
'

test_done
