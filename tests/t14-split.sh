#!/bin/bash
# t14-split.sh: `hdrslim split` proposes sub-headers from how the tree uses
# a header: on examples/sched, the planted debug and hotplug APIs (README
# item 7) come out as groups, with their users (grep decides) and names;
# the proposal's plan, run by `series --verify`, gives commits that all
# compile; edge cases: a use only in a macro, a declaration the rest of
# the header needs (it must stay), a struct the rest uses by pointer.

. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null 2>&1 || skip_all "gcc not found"
command -v git >/dev/null 2>&1 || skip_all "git not found"

EXAMPLE=$TEST_DIRECTORY/../examples/sched
DEBUG_API="SCHED_DEBUG_FILTER_ALL dump_cpu_task print_worker_info sched_show_task show_state show_state_filter"
HOTPLUG_API="idle_task_exit sched_cpu_activate sched_cpu_deactivate sched_cpu_dying sched_cpu_starting"

# group_of SYMBOL: the symbols of the group that holds SYMBOL, sorted, one line.
group_of () {
	awk -v s="$1" '/^  symbols:/ { for (i = 2; i <= NF; i++) if ($i == s) { $1 = ""; print; exit } }' out |
		tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//'
}



test_expect_success 'the debug API is one group, named sched/debug.h' '
	hdrslim split "$EXAMPLE" include/linux/sched.h >out &&
	test "$(group_of show_state)" = "$DEBUG_API" &&
	grep -B1 "^  symbols: SCHED_DEBUG_FILTER_ALL" out | grep -q "^group [0-9]*: <linux/sched/debug.h>"
'

test_expect_success 'the hotplug API is one group, named sched/hotplug.h' '
	test "$(group_of sched_cpu_dying)" = "$HOTPLUG_API" &&
	grep -B1 "^  symbols: sched_cpu_starting" out | grep -q "^group [0-9]*: <linux/sched/hotplug.h>"
'

test_expect_success 'a group names its users: the files grep finds using its symbols' '
	(cd "$EXAMPLE" && grep -lw "$(echo $DEBUG_API | sed "s/ /\\\\|/g")" $(find kernel mm drivers -name "*.c") | sort) >expect &&
	awk "/^  symbols: SCHED_DEBUG_FILTER_ALL/ { getline; getline; sub(/.*files?: /, \"\"); print }" out |
		tr " " "\n" | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'task_node() takes <linux/topology.h> along; the saving counts its lines' '
	grep -A4 "^  symbols: task_node$" out >tn &&
	grep -q "takes along: <linux/topology.h> ($(wc -l <"$EXAMPLE/include/linux/topology.h") more lines)" tn &&
	n=$(grep -l "linux/sched.h" $(find "$EXAMPLE" -name "*.c") | wc -l) &&
	grep -q "leave each of $((n - 1)) TUs" tn
'

test_expect_success 'declarations nothing rare uses stay in the core; --json agrees' '
	test "$(group_of task_struct)" = "" &&
	hdrslim split --json "$EXAMPLE" include/linux/sched.h >json &&
	grep -q "\"name\": \"include/linux/sched/debug.h\", \"symbols\": \[\"SCHED_DEBUG_FILTER_ALL\"" json
'

test_expect_success 'the proposal as a plan: series --verify makes commits that all compile' '
	example_repo r1 && cd r1 && git tag start &&
	hdrslim split . include/linux/sched.h --plan ../split.plan >/dev/null &&
	grep -q "^split include/linux/sched.h -> include/linux/sched/debug.h: SCHED_DEBUG_FILTER_ALL" ../split.plan &&
	grep -q "^unbackinclude include/linux/sched.h include/linux/sched/hotplug.h" ../split.plan &&
	grep -q "^drop include/linux/sched.h <linux/topology.h>" ../split.plan &&
	hdrslim series --verify . ../split.plan >log 2>&1 &&
	for c in $(git rev-list --reverse start..HEAD); do
		git checkout -q $c && example_compiles -DCONFIG_SMP -DCONFIG_HOTPLUG_CPU "-DCONFIG_SMP -DCONFIG_HOTPLUG_CPU" || return 1
	done &&
	git checkout -q hdrslim/split &&
	test $(wc -l <include/linux/sched.h) -lt $(git show start:include/linux/sched.h | wc -l)
'

test_expect_success '--symbol: the users of one name and the headers every user reaches' '
	hdrslim split --symbol task_node "$EXAMPLE" include/linux/sched.h >sym &&
	grep -q "^task_node: declared at include/linux/sched.h:268-271, used by 1 TUs through 1 file" sym &&
	grep -q "^  mm/mempolicy.c$" sym &&
	(cd "$EXAMPLE" && gcc -M -Iinclude mm/mempolicy.c) | tr " " "\n" | grep "\.h$" >closure &&
	sed -n "/^cheapest homes/,\$p" sym | sed 1d | sed "s/^  \([^:]*\):.*/\1/" >homes &&
	test -s homes &&
	while read h; do grep -q "$h\$" closure || return 1; done <homes &&
	test_expect_code 2 hdrslim split --symbol no_such_name "$EXAMPLE" include/linux/sched.h 2>err &&
	grep -q "declares no .no_such_name." err
'

# A small tree for the edge cases: rare.h-style APIs inside big.h.
mkdir -p edge/include edge/src
echo -Iinclude >edge/compile_flags.txt
cat >edge/include/big.h <<'EOF'
#ifndef BIG_H
#define BIG_H

struct big_state {
	int a, b, c;
};

/*
 * Rarely used: the tracing helpers.  trace_hook() is also called by
 * big_common() below, so it cannot leave.
 */
extern int trace_hook(int x);
extern int trace_dump(int x);
extern int trace_flush(int x);
extern int trace_reset(int x);
extern int trace_level(int x);
extern int trace_mask(int x);
extern int trace_count(int x);
extern int trace_state(int x);

/*
 * Rarely used: the stats block; the core keeps a pointer to it.
 */
struct big_stats {
	long hits;
	long misses;
	long evictions;
	long refills;
	long flushes;
};
extern void stats_print(struct big_stats *s);

static inline int big_common(struct big_state *s)
{
	return s->a + trace_hook(s->b);
}

struct big_owner {
	struct big_stats *stats;
	struct big_state state;
};

#endif
EOF
for i in 1 2 3 4 5 6 7 8; do
	cat >edge/src/user$i.c <<EOF
#include <big.h>
int user$i(struct big_owner *o) { return big_common(&o->state); }
EOF
done
cat >>edge/src/user1.c <<'EOF'
#define DUMP(x) trace_dump(x) + trace_flush(x) + trace_reset(x) + trace_level(x) + trace_mask(x) + trace_count(x) + trace_state(x)
int dump1(void) { return DUMP(1); }
EOF
cat >>edge/src/user2.c <<'EOF'
void show2(struct big_owner *o) { stats_print(o->stats); }
EOF
# defines what big.h declares: it needs the prototype (-Wmissing-prototypes)
cat >edge/src/stats.c <<'EOF'
#include <big.h>
void stats_print(struct big_stats *s) { (void)s; }
EOF

test_expect_success 'edge: a use only inside a macro counts; the rest of the tracing API leaves' '
	hdrslim split --max-share 0.25 --min-lines 4 edge include/big.h >out &&
	test "$(group_of trace_dump)" = "trace_count trace_dump trace_flush trace_level trace_mask trace_reset trace_state" &&
	awk "/^  symbols: trace_dump/ { getline; getline; print }" out | grep -q "src/user1.c"
'

test_expect_success 'edge: what the rest of the header uses stays (no include cycle)' '
	test "$(group_of trace_hook)" = ""
'

test_expect_success 'edge: a struct the rest uses by pointer may leave; the header then declares it' '
	test "$(group_of big_stats)" = "big_stats stats_print" &&
	grep -q "include/big.h then declares: struct big_stats;" out
'

test_expect_success 'edge: the proposal runs as a series whose every commit compiles' '
	example_repo e1 "$TRASH_DIRECTORY/edge" && cd e1 && git tag start &&
	hdrslim split --max-share 0.25 --min-lines 4 . include/big.h --plan ../edge.plan >/dev/null &&
	hdrslim series --verify . ../edge.plan >log 2>&1 &&
	test "$(git rev-list --count start..HEAD)" = 4 &&
	for c in $(git rev-list --reverse start..HEAD); do
		git checkout -q $c &&
		for f in src/*.c; do gcc -Wall -Werror -fsyntax-only -Iinclude $f || return 1; done &&
		gcc -Wall -Wmissing-prototypes -Werror -fsyntax-only -Iinclude src/stats.c || return 1
	done &&
	git checkout -q hdrslim/edge &&
	grep -q "^struct big_stats;" include/big.h &&
	grep -q "#include <big/" src/stats.c
'

# A git-shaped tree: headers beside the sources, one umbrella cache.h
# declaring what index.c, path.c, env.c and quote.c implement (quote.h
# exists already).  --by=definer cuts it the way the project would: one
# header per implementing file, each type and macro with the functions
# that use it, whoever else uses it.
mkdir -p defs
echo -I. >defs/compile_flags.txt
cat >defs/cache.h <<'EOF'
#ifndef CACHE_H
#define CACHE_H

/* the index */
struct index_entry {
	int mode;
	char name[32];
};
#define INDEX_MAX 64
struct index_state {
	struct index_entry entries[INDEX_MAX];
	int nr;
};
int index_add(struct index_state *is, const char *name);
int index_find(const struct index_state *is, const char *name);
static inline int index_empty(const struct index_state *is)
{
	return is->nr == 0;
}

/* paths */
#define PATH_SEP '/'
int path_depth(const char *p);
int path_is_absolute(const char *p);

/* the environment */
extern int verbose_level;
int env_get(const char *name);

/* quoting */
void quote_print(const char *s);

#endif
EOF
cat >defs/quote.h <<'EOF'
#ifndef QUOTE_H
#define QUOTE_H
void quote_other(void);
#endif
EOF
cat >defs/index.c <<'EOF'
#include "cache.h"
#include <string.h>
int index_add(struct index_state *is, const char *name)
{
	if (is->nr >= INDEX_MAX)
		return -1;
	strncpy(is->entries[is->nr].name, name, 31);
	return is->nr++;
}
int index_find(const struct index_state *is, const char *name)
{
	for (int i = 0; i < is->nr; i++)
		if (!strcmp(is->entries[i].name, name))
			return i;
	return -1;
}
EOF
cat >defs/path.c <<'EOF'
#include "cache.h"
int path_depth(const char *p)
{
	int n = 0;
	for (; *p; p++)
		n += *p == PATH_SEP;
	return n;
}
int path_is_absolute(const char *p) { return *p == PATH_SEP; }
EOF
cat >defs/env.c <<'EOF'
#include "cache.h"
#include <stdlib.h>
int verbose_level;
int env_get(const char *name) { return getenv(name) != NULL; }
EOF
cat >defs/quote.c <<'EOF'
#include "cache.h"
#include "quote.h"
#include <stdio.h>
void quote_print(const char *s) { printf("'%s'", s); }
void quote_other(void) { }
EOF
cat >defs/main.c <<'EOF'
#include "cache.h"
int main(void)
{
	struct index_state is = {0};
	index_add(&is, "a");
	quote_print("x");
	return path_depth("/a/b") + verbose_level + index_empty(&is);
}
EOF
cat >defs/tool.c <<'EOF'
#include "cache.h"
int tool(void);
int tool(void) { return env_get("HOME") + path_is_absolute("/"); }
EOF

test_expect_success 'by definer: one group per implementing file, named after it' '
	hdrslim split --by=definer defs cache.h >out &&
	test "$(group_of index_add)" = "INDEX_MAX index_add index_empty index_entry index_find index_state" &&
	test "$(group_of path_depth)" = "PATH_SEP path_depth path_is_absolute" &&
	test "$(group_of env_get)" = "env_get verbose_level" &&
	test "$(group_of quote_print)" = "quote_print" &&
	grep -B2 "^  symbols: index_entry" out | grep -q "^group [0-9]*: \"index.h\"" &&
	grep -q "^  implemented in: path.c" out &&
	grep -q "^group [0-9]*: \"quote.h\" (exists" out &&
	hdrslim split --by=definer --json defs cache.h >json &&
	grep -q "\"by\": \"definer\"" json && grep -q "\"definer\": \"env.c\"" json
'

test_expect_success 'by definer: each group'"'"'s functions and variables are defined in its file (grep decides)' '
	for f in index path env quote; do
		awk "/^  implemented in: $f.c/ { getline; for (i = 2; i <= NF; i++) print \$i }" out >names &&
		test -s names &&
		for n in $(cat names); do
			case $n in [A-Z]*|index_entry|index_state|index_empty) continue;; esac
			grep -q "^[a-z].*[ *]$n\( =\|;\|(\)" defs/$f.c || { echo "$n not in $f.c"; return 1; }
		done || return 1
	done
'

test_expect_success 'by definer: the plan runs as a series (a move where the header exists); every commit compiles' '
	example_repo d1 "$TRASH_DIRECTORY/defs" && cd d1 && git tag start &&
	hdrslim split --by=definer . cache.h --plan ../defs.plan >/dev/null &&
	grep -q "^move cache.h -> quote.h: quote_print$" ../defs.plan &&
	grep -q "^split cache.h -> index.h: " ../defs.plan &&
	hdrslim series --verify . ../defs.plan >log 2>&1 &&
	test "$(git rev-list --count start..HEAD)" = 7 &&
	for c in $(git rev-list --reverse start..HEAD); do
		git checkout -q $c &&
		for f in *.c; do gcc -Wall -Wmissing-prototypes -Werror -fsyntax-only -I. $f || return 1; done
	done &&
	git checkout -q hdrslim/defs &&
	! grep -q "index_add\|path_depth\|quote_print\|env_get" cache.h &&
	grep -q "^void quote_print" quote.h &&
	grep -q "#include \"index.h\"" main.c && grep -q "#include \"quote.h\"" main.c &&
	git log --format=%s start..HEAD | grep -q "^cache: Move declarations for quote.c functions to quote.h$"
'

test_done
