/*
 * cmd_why.c — `hdrslim why FILE HEADER`: every distinct include chain
 * from a TU to a header, shortest first, each step as path:line with the
 * #if condition the #include sits under.
 *
 * Chains are enumerated by length: a reverse BFS gives every node's
 * distance to HEADER, and a depth-first search for chains of exactly L
 * steps only enters nodes that can still reach HEADER in the steps left.
 * L grows until --max chains are found; a step budget keeps a dense
 * kernel graph from running away.  With --dot the same chains are one
 * graph: the union of their steps, each edge weighed by what its target
 * brings into the TU (its "added" there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "dot.h"
#include "metrics.h"
#include "session.h"

#define STEP_BUDGET 5000000L

typedef struct {
	const TuGraph *g;
	int *succ_off, *succ_edge; /* CSR of edge indexes by source node */
	int *dist;
	int target;
	int want, found;
	long steps;
	int *path;    /* edge indexes */
	uint8_t *on_path;
	uint8_t *on_chain; /* --dot: by edge, a step of a chain found */
	Session *s;
} Search;

static void print_chain(Search *S, int len)
{
	Session *s = S->s;
	printf("#%d (%d step%s)\n", S->found, len, len == 1 ? "" : "s");
	for (int i = 0; i < len; i++) {
		const TuEdge *e = &S->g->edges.v[S->path[i]];
		int from = S->g->nodes.v[e->from];
		int to = S->g->nodes.v[e->to];
		const Facts *f = s->ft.files[from].facts;
		if (e->dir < 0 || !f) {
			printf("  (-include) %s\n", session_path(s, to));
			continue;
		}
		const Directive *d = &facts_dirs(f)[e->dir];
		char *cond = facts_condition(f, e->dir, NULL);
		printf("  %s:%u: #include %s%s%s", session_path(s, from), d->line,
		       d->flags & DF_ANGLED ? "<" : d->flags & DF_QUOTED ? "\"" : "",
		       d->flags & DF_COMPUTED ? facts_text(f, d) : facts_name(f, d),
		       d->flags & DF_ANGLED ? ">" : d->flags & DF_QUOTED ? "\"" : "");
		if (cond)
			printf("    [if %s]", cond);
		printf("\n");
		free(cond);
	}
}

static void dfs(Search *S, int v, int depth, int len)
{
	if (S->found >= S->want || ++S->steps > STEP_BUDGET)
		return;
	if (depth == len) {
		if (v == S->target) {
			S->found++;
			if (S->on_chain)
				for (int i = 0; i < len; i++)
					S->on_chain[S->path[i]] = 1;
			else
				print_chain(S, len);
		}
		return;
	}
	for (int k = S->succ_off[v]; k < S->succ_off[v + 1]; k++) {
		int e = S->succ_edge[k];
		int w = S->g->edges.v[e].to;
		if (S->on_path[w] || S->dist[w] < 0 || S->dist[w] > len - depth - 1)
			continue;
		if (w == S->target && depth + 1 != len)
			continue;
		S->on_path[w] = 1;
		S->path[depth] = e;
		dfs(S, w, depth + 1, len);
		S->on_path[w] = 0;
		if (S->found >= S->want)
			return;
	}
}

/* The chains' steps as one graph: the nodes and edges they use, in the
 * TU graph's order. */
static void print_dot(Search *S, TuGraph *g, const char *title)
{
	Session *s = S->s;
	uint64_t *weight = xmalloc(((size_t)g->nodes.n + 1) * sizeof(uint64_t));
	metrics_tu_added(s, g, weight);
	uint8_t *used = xcalloc((size_t)g->nodes.n + 1, 1);
	for (int i = 0; i < g->edges.n; i++)
		if (S->on_chain[i])
			used[g->edges.v[i].from] = used[g->edges.v[i].to] = 1;
	char *label = xasprintf("%s: %d chain%s", title, S->found, S->found == 1 ? "" : "s");
	dot_begin(session_path(s, g->nodes.v[0]), label);
	free(label);
	for (int i = 0; i < g->nodes.n; i++)
		if (used[i])
			dot_tu_node(s, g, i);
	for (int i = 0; i < g->edges.n; i++)
		if (S->on_chain[i])
			dot_tu_edge(s, g, i, weight, true);
	dot_end();
	free(used);
	free(weight);
}

static int find_header(Session *s, const TuGraph *g, const char *header)
{
	struct stat st;
	if (stat(header, &st) == 0 && S_ISREG(st.st_mode)) {
		char *abs = path_absolute(header);
		int key = fs_key(&s->ft, abs);
		free(abs);
		for (int i = 1; i < g->nodes.n; i++)
			if (s->ft.files[g->nodes.v[i]].key == key)
				return i;
	}
	size_t n = strlen(header);
	for (int i = 1; i < g->nodes.n; i++) {
		const char *k = session_path(s, g->nodes.v[i]);
		size_t m = strlen(k);
		if (m >= n && !strcmp(k + m - n, header) && (m == n || k[m - n - 1] == '/'))
			return i;
	}
	return -1;
}

int cmd_why(int argc, char **argv)
{
	Options o;
	options_parse(&o, argc, argv, "why", "--max,--dot");
	if (o.args.n != 2)
		die("why: needs FILE and HEADER (usage: hdrslim why [OPTIONS] FILE HEADER)");
	Session s;
	session_open(&s, &o, o.tree ? o.tree : ".", false);
	Unit u = session_unit_for_path(&s, o.args.v[0]);
	session_prepare(&s, &u, 1);
	TuGraph g = {0};
	session_tu(&s, &u, &g);
	int target = find_header(&s, &g, o.args.v[1]);
	if (target < 0) {
		/* a graph's reader gets no graph, and the reason on stderr */
		fprintf(o.dot ? stderr : stdout, "%s does not include %s (%s mode)\n",
			session_path(&s, u.file), o.args.v[1], s.cfg.exact ? "exact" : "union");
		tu_free(&g);
		session_close(&s);
		options_free(&o);
		return EXIT_FINDINGS;
	}
	int n = g.nodes.n, m = g.edges.n;
	Search S = {.g = &g, .target = target, .want = o.max >= 0 ? o.max : 10, .s = &s};
	S.succ_off = xcalloc((size_t)n + 1, sizeof(int));
	S.succ_edge = xmalloc(((size_t)m + 1) * sizeof(int));
	S.dist = xmalloc((size_t)n * sizeof(int));
	S.path = xmalloc(((size_t)n + 1) * sizeof(int));
	S.on_path = xcalloc((size_t)n, 1);
	for (int i = 0; i < m; i++)
		S.succ_off[g.edges.v[i].from + 1]++;
	for (int i = 0; i < n; i++)
		S.succ_off[i + 1] += S.succ_off[i];
	int *cursor = xmalloc(((size_t)n + 1) * sizeof(int));
	memcpy(cursor, S.succ_off, ((size_t)n + 1) * sizeof(int));
	for (int i = 0; i < m; i++)
		S.succ_edge[cursor[g.edges.v[i].from]++] = i;
	/* distance to target: reverse BFS (relax until stable; graphs are small) */
	for (int i = 0; i < n; i++)
		S.dist[i] = -1;
	S.dist[target] = 0;
	for (bool changed = true; changed;) {
		changed = false;
		for (int i = 0; i < m; i++) {
			int a = g.edges.v[i].from, b = g.edges.v[i].to;
			if (S.dist[b] >= 0 && (S.dist[a] < 0 || S.dist[a] > S.dist[b] + 1) && a != target) {
				S.dist[a] = S.dist[b] + 1;
				changed = true;
			}
		}
	}
	char *title = xasprintf("%s -> %s (%s mode)", session_path(&s, u.file),
				session_path(&s, g.nodes.v[target]), s.cfg.exact ? "exact" : "union");
	if (o.dot)
		S.on_chain = xcalloc((size_t)m + 1, 1);
	else
		printf("%s:\n", title);
	S.on_path[0] = 1;
	for (int len = S.dist[0]; len >= 1 && len <= n && S.found < S.want && S.steps <= STEP_BUDGET; len++)
		dfs(&S, 0, 0, len);
	if (S.steps > STEP_BUDGET)
		fprintf(o.dot ? stderr : stdout, "%ssearch stopped after %ld steps; more chains may exist%s\n",
			o.dot ? "hdrslim: why: " : "(", STEP_BUDGET, o.dot ? "" : ")");
	if (o.dot)
		print_dot(&S, &g, title);
	free(title);
	free(S.on_chain);
	free(cursor);
	free(S.succ_off);
	free(S.succ_edge);
	free(S.dist);
	free(S.path);
	free(S.on_path);
	tu_free(&g);
	session_close(&s);
	options_free(&o);
	return session_status();
}
