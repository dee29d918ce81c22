/*
 * cmd_cost.c — `hdrslim cost [TREE]`: which headers cost the build most.
 * Computes the metrics over every TU of the tree and prints them sorted,
 * as a table or as JSON (fields may be added, never renamed), or the top
 * headers as a graph for Graphviz (--dot): the includes between them, and
 * a dashed edge where one reaches another only through headers not shown,
 * so that the picture stays connected the way the include graph is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dot.h"
#include "facts.h"
#include "memo.h"
#include "metrics.h"

typedef enum { M_ADDED, M_BUILD_LINES, M_TUS, M_PREVALENCE, M_DIRECT, M_LINES, M_EXPANDED } Metric;

static const struct {
	const char *name;
	Metric m;
} metric_names[] = {
	{"added", M_ADDED}, {"build_lines", M_BUILD_LINES}, {"build-lines", M_BUILD_LINES},
	{"tus", M_TUS}, {"prevalence", M_PREVALENCE}, {"direct_includers", M_DIRECT},
	{"direct-includers", M_DIRECT}, {"direct", M_DIRECT}, {"lines", M_LINES},
	{"expanded", M_EXPANDED},
};

static const char *metric_name(Metric m)
{
	for (size_t i = 0; i < sizeof(metric_names) / sizeof(metric_names[0]); i++)
		if (metric_names[i].m == m)
			return metric_names[i].name;
	return "?";
}

static Metric sort_metric;
static Session *sort_session; /* ties go by path: file ids differ between runs */

static double metric_value(const HeaderCost *h)
{
	switch (sort_metric) {
	case M_ADDED: return (double)h->added;
	case M_BUILD_LINES: return (double)h->build_lines;
	case M_TUS: return (double)h->tus;
	case M_PREVALENCE: return h->prevalence;
	case M_DIRECT: return (double)h->direct_includers;
	case M_LINES: return (double)h->lines;
	case M_EXPANDED: return (double)h->expanded;
	}
	return 0;
}

static int by_metric(const void *a, const void *b)
{
	const HeaderCost *x = a, *y = b;
	double vx = metric_value(x), vy = metric_value(y);
	if (vx != vy)
		return vx < vy ? 1 : -1;
	return strcmp(session_path(sort_session, x->file), session_path(sort_session, y->file));
}

static void print_json(Session *s, const CostTable *t, int top)
{
	StrBuf sb = {0};
	sb_adds(&sb, "{\"tree\": ");
	json_string(&sb, s->ft.root);
	sb_addf(&sb, ", \"mode\": \"%s\", \"tus\": %d, \"files\": %d, \"headers\": [",
		s->cfg.exact ? "exact" : "union", t->tus, t->files);
	for (int i = 0; i < t->n && i < top; i++) {
		const HeaderCost *h = &t->v[i];
		sb_adds(&sb, i ? ",\n  {\"path\": " : "\n  {\"path\": ");
		json_string(&sb, session_path(s, h->file));
		sb_addf(&sb,
			", \"lines\": %llu, \"direct_includers\": %llu, \"tus\": %llu, "
			"\"prevalence\": %.6f, \"expanded\": %llu, \"added\": %llu, \"build_lines\": %llu}",
			(unsigned long long)h->lines, (unsigned long long)h->direct_includers,
			(unsigned long long)h->tus, h->prevalence, (unsigned long long)h->expanded,
			(unsigned long long)h->added, (unsigned long long)h->build_lines);
		if (sb.len > (1u << 20)) {
			fwrite(sb.buf, 1, sb.len, stdout);
			sb.len = 0;
		}
	}
	sb_adds(&sb, "\n]}\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	free(sb.buf);
}

static void print_table(Session *s, const CostTable *t, int top)
{
	printf("%s: %s mode, %d TUs, %d files; top %d of %d headers by %s\n", s->ft.root,
	       s->cfg.exact ? "exact" : "union", t->tus, t->files, top < t->n ? top : t->n, t->n,
	       s->opt->sort ? s->opt->sort : "added");
	printf("%14s %14s %7s %6s %7s %6s %8s  %s\n", "added", "build_lines", "tus", "prev%",
	       "direct", "lines", "expanded", "header");
	for (int i = 0; i < t->n && i < top; i++) {
		const HeaderCost *h = &t->v[i];
		printf("%14llu %14llu %7llu %6.1f %7llu %6llu %8llu  %s\n", (unsigned long long)h->added,
		       (unsigned long long)h->build_lines, (unsigned long long)h->tus,
		       h->prevalence * 100.0, (unsigned long long)h->direct_includers,
		       (unsigned long long)h->lines, (unsigned long long)h->expanded,
		       session_path(s, h->file));
	}
}

/* ---- --dot ---- */

/* Include edges over file ids: includer, included, the #include's
 * directive index in the includer's facts. */
typedef struct {
	IntVec from, to, dir;
} Edges;

static void edges_add(Edges *E, int from, int to, int dir)
{
	vec_push(&E->from, from);
	vec_push(&E->to, to);
	vec_push(&E->dir, dir);
}

/* Union mode: the edges of every file the shown headers reach, each file
 * under its own context (the graph direct_includers counts). */
static void edges_union(Session *s, const CostTable *t, int top, Edges *E)
{
	IntVec work = {0}, targets = {0}, dirs = {0};
	VEC(uint8_t) seen = {0};
	for (int i = top - 1; i >= 0; i--)
		vec_push(&work, t->v[i].file);
	while (work.n) {
		int f = work.v[--work.n];
		while (seen.n <= f)
			vec_push(&seen, 0);
		if (seen.v[f])
			continue;
		seen.v[f] = 1;
		int ctx = session_ctx_for_file(s, f); /* may add contexts: before ctxs.v is read */
		int chain = s->cfg.ctxs.v[ctx].chain;
		graph_ensure(s->graph, chain, f);
		graph_file_edges(s->graph, chain, f, &targets, &dirs);
		for (int k = 0; k < targets.n; k++) {
			int to = targets.v[k];
			if (to < 0 || to == f)
				continue;
			edges_add(E, f, to, dirs.v[k]);
			vec_push(&work, to);
		}
	}
	vec_free(&work);
	vec_free(&targets);
	vec_free(&dirs);
	vec_free(&seen);
}

/* Exact mode: every include edge some TU's walk took, each once, in the
 * order the walks (in TU order) first took them. */
static void edges_exact(Session *s, Edges *E)
{
	typedef struct {
		int from, to, dir;
	} Slot;
	uint32_t mask = 4095, used = 0;
	Slot *set = xmalloc((mask + 1) * sizeof(Slot));
	for (uint32_t i = 0; i <= mask; i++)
		set[i].from = -1;
	TuGraph g = {0};
	for (int u = 0; u < s->cfg.units.n; u++) {
		session_tu(s, &s->cfg.units.v[u], &g);
		for (int i = 0; i < g.edges.n; i++) {
			const TuEdge *e = &g.edges.v[i];
			Slot k = {g.nodes.v[e->from], g.nodes.v[e->to], e->dir};
			if (k.dir < 0 || k.from == k.to)
				continue;
			if ((used + 1) * 2 > mask) {
				uint32_t nmask = mask * 2 + 1;
				Slot *n = xmalloc(((size_t)nmask + 1) * sizeof(Slot));
				for (uint32_t j = 0; j <= nmask; j++)
					n[j].from = -1;
				for (uint32_t j = 0; j <= mask; j++) {
					if (set[j].from < 0)
						continue;
					uint32_t h = (uint32_t)hash_bytes(&set[j], sizeof(Slot)) & nmask;
					while (n[h].from >= 0)
						h = (h + 1) & nmask;
					n[h] = set[j];
				}
				free(set);
				set = n;
				mask = nmask;
			}
			uint32_t h = (uint32_t)hash_bytes(&k, sizeof k) & mask;
			while (set[h].from >= 0 && memcmp(&set[h], &k, sizeof k))
				h = (h + 1) & mask;
			if (set[h].from >= 0)
				continue;
			set[h] = k;
			used++;
			edges_add(E, k.from, k.to, k.dir);
		}
	}
	tu_free(&g);
	free(set);
}

/* "if COND" for the #include lines of `to` in `from` (idx into E), none
 * when one of them is unconditional; distinct conditions joined by ||. */
static char *edge_condition(Session *s, const Edges *E, const int *idx, int n)
{
	const Facts *f = s->ft.files[E->from.v[idx[0]]].facts;
	StrVec conds = {0};
	bool always = !f;
	for (int i = 0; i < n && !always; i++) {
		char *c = facts_condition(f, E->dir.v[idx[i]], NULL);
		always = !c;
		bool dup = false;
		for (int k = 0; c && k < conds.n && !dup; k++)
			dup = !strcmp(conds.v[k], c);
		if (c && !dup)
			vec_push(&conds, c);
		else
			free(c);
	}
	char *out = NULL;
	if (!always) {
		StrBuf sb = {0};
		sb_adds(&sb, "if ");
		for (int k = 0; k < conds.n; k++)
			sb_addf(&sb, conds.n > 1 ? "%s(%s)" : "%s%s", k ? " || " : "", conds.v[k]);
		out = xstrdup(sb_str(&sb));
		free(sb.buf);
	}
	for (int k = 0; k < conds.n; k++)
		free(conds.v[k]);
	vec_free(&conds);
	return out;
}

static const int *sort_rank; /* by file: row in the table, -1 not shown */
static const Edges *sort_edges;

static int by_target_rank(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int rx = sort_rank[sort_edges->to.v[x]], ry = sort_rank[sort_edges->to.v[y]];
	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (sort_edges->dir.v[x] != sort_edges->dir.v[y])
		return sort_edges->dir.v[x] - sort_edges->dir.v[y];
	/* exact mode: one #include_next or computed #include, two files */
	return strcmp(session_path(sort_session, sort_edges->to.v[x]),
		      session_path(sort_session, sort_edges->to.v[y]));
}

typedef struct {
	int row, len, first; /* target's row, headers in between, the first */
} Dashed;

static int by_row(const void *a, const void *b)
{
	const Dashed *x = a, *y = b;
	return x->row - y->row;
}

static void node_label(Session *s, const HeaderCost *h, StrBuf *sb)
{
	sb_addf(sb, "%s\n%s ", session_path(s, h->file), metric_name(sort_metric));
	if (sort_metric == M_PREVALENCE)
		sb_addf(sb, "%.1f%%", h->prevalence * 100.0);
	else
		sb_addf(sb, "%.0f", metric_value(h));
}

/*
 * The top rows as a graph.  Nodes in table order; from each, in table
 * order of the target, its direct includes of other shown headers, then
 * a dashed edge to each shown header it reaches only through headers not
 * shown (a breadth-first search that never enters a shown one), labelled
 * with the first of them on a shortest such path.  An edge's weight is
 * its target's "added": the lines that would leave the build with it.
 */
static void print_dot(Session *s, const CostTable *t, int top)
{
	Edges E = {0};
	if (s->graph)
		edges_union(s, t, top, &E);
	else
		edges_exact(s, &E);
	int nfiles = s->ft.nfiles;
	int *off, *out;
	IntVec ids = {0};
	for (int i = 0; i < E.from.n; i++)
		vec_push(&ids, i);
	csr_build(nfiles, E.from.v, ids.v, E.from.n, &off, &out);
	vec_free(&ids);
	int *rank = xmalloc(((size_t)nfiles + 1) * sizeof(int));
	for (int i = 0; i < nfiles; i++)
		rank[i] = -1;
	for (int i = 0; i < top; i++)
		rank[t->v[i].file] = i;
	sort_rank = rank;
	sort_edges = &E;

	StrBuf sb = {0};
	sb_addf(&sb, "%s: top %d of %d headers by %s (%s mode, %d TUs)", s->ft.root, top, t->n,
		metric_name(sort_metric), s->cfg.exact ? "exact" : "union", t->tus);
	dot_begin("cost", sb_str(&sb));
	for (int i = 0; i < top; i++) {
		sb.len = 0;
		node_label(s, &t->v[i], &sb);
		dot_node(session_path(s, t->v[i].file), sb_str(&sb), NULL);
	}
	int *mark = xcalloc((size_t)nfiles + 1, sizeof(int)); /* epoch: row + 1 */
	int *dist = xmalloc(((size_t)nfiles + 1) * sizeof(int));
	int *first = xmalloc(((size_t)nfiles + 1) * sizeof(int));
	int *direct = xcalloc((size_t)top + 1, sizeof(int));
	IntVec queue = {0};
	VEC(Dashed) dashed = {0};
	for (int a = 0; a < top; a++) {
		int fa = t->v[a].file;
		const char *pa = session_path(s, fa);
		int *row = out + off[fa], nrow = off[fa + 1] - off[fa];
		qsort(row, (size_t)nrow, sizeof(int), by_target_rank);
		for (int i = 0; i < nrow;) {
			int to = E.to.v[row[i]], j = i;
			while (j < nrow && E.to.v[row[j]] == to)
				j++;
			if (rank[to] >= 0 && to != fa) {
				direct[rank[to]] = a + 1;
				sb.len = 0;
				char *cond = edge_condition(s, &E, row + i, j - i);
				if (cond)
					sb_addf(&sb, "%s\n", cond);
				free(cond);
				dot_lines(&sb, "+", t->v[rank[to]].added);
				dot_edge(pa, session_path(s, to), sb_str(&sb), NULL);
			}
			i = j;
		}
		queue.n = dashed.n = 0;
		mark[fa] = a + 1;
		for (int i = 0; i < nrow; i++) {
			int u = E.to.v[row[i]];
			if (rank[u] < 0 && mark[u] != a + 1) {
				mark[u] = a + 1;
				dist[u] = 1;
				first[u] = u;
				vec_push(&queue, u);
			}
		}
		for (int q = 0; q < queue.n; q++) {
			int u = queue.v[q];
			for (int k = off[u]; k < off[u + 1]; k++) {
				int w = E.to.v[out[k]];
				if (mark[w] == a + 1)
					continue;
				mark[w] = a + 1;
				if (rank[w] >= 0) {
					if (direct[rank[w]] != a + 1) {
						Dashed d = {rank[w], dist[u], first[u]};
						vec_push(&dashed, d);
					}
					continue;
				}
				dist[w] = dist[u] + 1;
				first[w] = first[u];
				vec_push(&queue, w);
			}
		}
		if (dashed.n)
			qsort(dashed.v, (size_t)dashed.n, sizeof(Dashed), by_row);
		for (int i = 0; i < dashed.n; i++) {
			const Dashed *d = &dashed.v[i];
			sb.len = 0;
			sb_addf(&sb, "via %s", session_path(s, d->first));
			if (d->len > 1)
				sb_addf(&sb, " and %d more", d->len - 1);
			dot_lines(&sb, "\n+", t->v[d->row].added);
			dot_edge(pa, session_path(s, t->v[d->row].file), sb_str(&sb), "dashed");
		}
	}
	dot_end();
	free(sb.buf);
	free(mark);
	free(dist);
	free(first);
	free(direct);
	free(rank);
	free(off);
	free(out);
	vec_free(&queue);
	vec_free(&dashed);
	vec_free(&E.from);
	vec_free(&E.to);
	vec_free(&E.dir);
}

/* The rows printed: --top, else all with --json, else 20. */
static int rows_shown(const Options *o, int n)
{
	int top = o->top >= 0 ? o->top : o->json ? n : 20;
	return top < n ? top : n;
}

/* The rows whose "expanded" must be measured: every one when JSON shows
 * them all or when they are sorted by it, else the rows shown. */
static int rows_expanded(const Options *o, int n)
{
	return o->json || sort_metric == M_EXPANDED ? n : rows_shown(o, n);
}

/* The last run's table when none of its inputs changed and it measured
 * "expanded" for every row this run needs; sorted. */
static bool reuse_kept(Session *s, CostTable *t)
{
	if (s->opt->no_memo)
		return false;
	session_lex(s, s->cfg.units.v, s->cfg.units.n);
	char *kept;
	size_t len;
	if (!memo_load(s, "cost", &kept, &len))
		return false;
	bool ok = metrics_unpack(s, kept, len, t);
	free(kept);
	if (!ok)
		return false;
	if (t->n)
		qsort(t->v, (size_t)t->n, sizeof(HeaderCost), by_metric);
	int need = rows_expanded(s->opt, t->n);
	for (int i = 0; i < need; i++)
		ok = ok && t->v[i].has_expanded;
	if (!ok)
		metrics_free(t);
	return ok;
}

int cmd_cost(int argc, char **argv)
{
	Options o;
	options_parse(&o, argc, argv, "cost", "--sort,--top,--json,--no-memo,--dot");
	if (o.dot && o.json)
		die("cost: --dot and --json are two outputs; choose one");
	sort_metric = M_ADDED;
	if (o.sort) {
		bool found = false;
		for (size_t i = 0; i < sizeof(metric_names) / sizeof(metric_names[0]); i++)
			if (!strcmp(o.sort, metric_names[i].name))
				sort_metric = metric_names[i].m, found = true;
		if (!found)
			die("cost: unknown metric '%s' for --sort (added, build_lines, tus, prevalence, "
			    "direct_includers, lines, expanded)", o.sort);
	}
	if (o.args.n > 1)
		die("cost: one TREE at most (got '%s' and '%s')", o.args.v[0], o.args.v[1]);
	const char *tree = o.args.n ? o.args.v[0] : o.tree ? o.tree : ".";
	Session s;
	session_open(&s, &o, tree, true);
	session_all_units(&s);
	if (o.show_config && s.cfg.ctxs.n) {
		StrBuf sb = {0};
		config_show(&s.cfg, s.cfg.units.n ? s.cfg.units.v[0].ctx : 0, &sb);
		fputs(sb_str(&sb), stdout);
		free(sb.buf);
	}
	sort_session = &s;
	CostTable t;
	bool reused = reuse_kept(&s, &t);
	if (!reused) {
		metrics_compute(&s, s.cfg.units.v, s.cfg.units.n, &t);
		/* "expanded" is measured for the rows that need it; sorted by
		 * it, before the sort */
		bool all = rows_expanded(&o, t.n) == t.n;
		if (all)
			metrics_expand(&s, s.cfg.units.v, t.v, t.n);
		if (t.n)
			qsort(t.v, (size_t)t.n, sizeof(HeaderCost), by_metric);
		if (!all)
			metrics_expand(&s, s.cfg.units.v, t.v, rows_expanded(&o, t.n));
	}
	int top = rows_shown(&o, t.n);
	if (o.stats)
		fprintf(stderr, "hdrslim: stats: cost: %s\n",
			reused ? "kept result reused (no input changed)" : "computed");
	if (o.stats)
		fprintf(stderr, "hdrslim: stats: TU graphs: %llu nodes, %llu edges, %llu dominator passes\n",
			(unsigned long long)metrics_nodes, (unsigned long long)metrics_edges,
			(unsigned long long)metrics_dom_passes);
	if (o.dot) {
		if (reused) /* the kept table came without the graph */
			session_prepare(&s, s.cfg.units.v, s.cfg.units.n);
		print_dot(&s, &t, top);
	} else if (o.json)
		print_json(&s, &t, top);
	else
		print_table(&s, &t, top);
	if (!reused && !o.no_memo) {
		StrBuf kept = {0};
		metrics_pack(&s, &t, &kept);
		memo_save(&s, "cost", kept.buf, kept.len);
		free(kept.buf);
	}
	if (FREE_AT_EXIT)
		metrics_free(&t);
	s.last = true;
	session_close(&s);
	options_free(&o);
	return session_status();
}
