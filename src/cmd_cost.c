/*
 * cmd_cost.c — `hdrslim cost [TREE]`: which headers cost the build most.
 * Computes the metrics over every TU of the tree and prints them sorted,
 * as a table or as JSON (fields may be added, never renamed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
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
	options_parse(&o, argc, argv, "cost", "--sort,--top,--json,--no-memo");
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
	if (o.json)
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
