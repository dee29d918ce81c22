/*
 * report.c — the data of `hdrslim report` (report.h).
 *
 * Everything the page shows is computed here, so the browser only draws:
 * the cost table's rows; for each header, its closure preprocessed alone
 * (the model of `slim`: its include graph, each file weighing its
 * physical lines) and, for each of its #include lines, the lines that
 * leave that closure when that one line goes; its includers, the most
 * used first; check's findings about it with their evidence; and the
 * tree's include edges with their lines, from which the page finds an
 * include chain on demand (`why`).
 *
 * Files are numbered in the document by their place in "paths": the
 * cost table's headers first, in its order, then every other file an
 * edge names.  The JSON never holds a '<' (it is written \u003c), so it
 * cannot end the <script> element it sits in.
 */
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "report.h"

typedef struct {
	unsigned line;
	int to;
	int dir; /* directive index, -1 when unknown (exact mode) */
} Edge;

typedef struct {
	const ReportInput *in;
	Session *s;
	int nfiles;
	int *off;       /* CSR of the edges by file id */
	Edge *edges;
	int *roff, *rev; /* includers by file id (each once) */
	uint32_t *lines;
	int *row_of;    /* file id -> cost row, -1 */
	int *local;     /* file id -> index in paths, -1 */
	IntVec paths;   /* index -> file id */
	/* by cost row */
	int64_t *alone_lines;
	int *alone_headers;
	int64_t **brings; /* by the row's edges, in order */
	int next;       /* rows handed out to the workers */
} Report;

static int cmp_edge_line(const void *a, const void *b)
{
	const Edge *x = a, *y = b;
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : (x->to > y->to) - (x->to < y->to);
}

/* Every file's include edges: the union graph's, each file under its own
 * context, with their directives; in exact mode, those the walks took. */
static void build_edges(Report *r)
{
	Session *s = r->s;
	int n = r->nfiles;
	VEC(Edge) all = {0};
	IntVec from = {0};
	if (s->graph) {
		IntVec out = {0}, dirs = {0};
		for (int f = 0; f < n; f++) {
			const Facts *fa = s->ft.files[f].facts;
			if (!fa)
				continue;
			int ctx = session_ctx_for_file(s, f);
			int chain = s->cfg.ctxs.v[ctx].chain;
			out.n = dirs.n = 0;
			graph_file_edges(s->graph, chain, f, &out, &dirs);
			for (int k = 0; k < out.n; k++) {
				if (out.v[k] < 0 || out.v[k] == f || out.v[k] >= n)
					continue;
				int dir = dirs.v[k];
				Edge e = {dir >= 0 && dir < (int)fa->ndirs ? facts_dirs(fa)[dir].line : 0, out.v[k], dir};
				vec_push(&all, e);
				vec_push(&from, f);
			}
		}
		vec_free(&out);
		vec_free(&dirs);
	} else {
		IncludeEdges ie;
		session_include_edges(s, &ie);
		for (int f = 0; f < n && f < ie.n; f++)
			for (int k = ie.fwd_off[f]; k < ie.fwd_off[f + 1]; k++) {
				Edge e = {0, ie.fwd[k], -1};
				vec_push(&all, e);
				vec_push(&from, f);
			}
		include_edges_free(&ie);
	}
	r->off = xcalloc((size_t)n + 2, sizeof(int));
	for (int i = 0; i < from.n; i++)
		r->off[from.v[i] + 1]++;
	for (int f = 0; f < n; f++)
		r->off[f + 1] += r->off[f];
	r->edges = xmalloc(((size_t)all.n + 1) * sizeof(Edge));
	int *fill = xmalloc(((size_t)n + 1) * sizeof(int));
	memcpy(fill, r->off, (size_t)n * sizeof(int));
	for (int i = 0; i < from.n; i++)
		r->edges[fill[from.v[i]]++] = all.v[i];
	for (int f = 0; f < n; f++)
		if (r->off[f + 1] - r->off[f] > 1)
			qsort(r->edges + r->off[f], (size_t)(r->off[f + 1] - r->off[f]), sizeof(Edge), cmp_edge_line);
	/* includers, each once */
	int *cnt = xcalloc((size_t)n + 2, sizeof(int));
	int *last = xmalloc(((size_t)n + 1) * sizeof(int));
	for (int f = 0; f < n; f++)
		last[f] = -1;
	for (int f = 0; f < n; f++)
		for (int k = r->off[f]; k < r->off[f + 1]; k++)
			if (last[r->edges[k].to] != f)
				last[r->edges[k].to] = f, cnt[r->edges[k].to + 1]++;
	for (int f = 0; f < n; f++)
		cnt[f + 1] += cnt[f];
	r->roff = cnt;
	r->rev = xmalloc(((size_t)cnt[n] + 1) * sizeof(int));
	memcpy(fill, cnt, (size_t)n * sizeof(int));
	for (int f = 0; f < n; f++)
		last[f] = -1;
	for (int f = 0; f < n; f++)
		for (int k = r->off[f]; k < r->off[f + 1]; k++)
			if (last[r->edges[k].to] != f)
				last[r->edges[k].to] = f, r->rev[fill[r->edges[k].to]++] = f;
	free(last);
	free(fill);
	vec_free(&all);
	vec_free(&from);
}

/* ---- each header alone ---- */

typedef struct {
	uint32_t *stamp, *cstamp, *cnt;
	uint32_t cur;   /* the walk's mark in stamp */
	uint32_t hcur;  /* the header's mark in cstamp: cnt is its when set */
	IntVec queue, reach, reach_off;
} AloneScratch;

/* Breadth-first from start, never entering `avoid`, marking with the
 * scratch's current stamp; the files reached are appended to *out. */
static void reach_from(Report *r, AloneScratch *a, int start, int avoid, IntVec *out)
{
	if (start == avoid || a->stamp[start] == a->cur)
		return;
	a->queue.n = 0;
	a->stamp[start] = a->cur;
	vec_push(&a->queue, start);
	for (int q = 0; q < a->queue.n; q++) {
		int v = a->queue.v[q];
		vec_push(out, v);
		for (int k = r->off[v]; k < r->off[v + 1]; k++) {
			int w = r->edges[k].to;
			if (w != avoid && a->stamp[w] != a->cur) {
				a->stamp[w] = a->cur;
				vec_push(&a->queue, w);
			}
		}
	}
}

static void next_stamp(AloneScratch *a, int n)
{
	if (++a->cur == 0) {
		memset(a->stamp, 0, (size_t)n * sizeof(uint32_t));
		a->cur = 1;
	}
}

/* Header h alone: its closure's lines and headers, and for each of its
 * edges the lines only that edge's target brings (0 when another line
 * includes the same file). */
static void alone(Report *r, AloneScratch *a, int row)
{
	int h = r->in->cost->v[row].file;
	int n = r->nfiles;
	next_stamp(a, n);
	a->reach.n = 0;
	reach_from(r, a, h, -1, &a->reach);
	int64_t sum = 0;
	for (int i = 0; i < a->reach.n; i++)
		sum += r->lines[a->reach.v[i]];
	r->alone_lines[row] = sum;
	r->alone_headers[row] = a->reach.n - 1;
	int ne = r->off[h + 1] - r->off[h];
	r->brings[row] = xcalloc((size_t)ne + 1, sizeof(int64_t));
	/* what each target reaches without passing through h; cnt counts
	 * the targets reaching a file */
	a->reach.n = 0;
	a->reach_off.n = 0;
	a->hcur++;
	for (int k = 0; k < ne; k++) {
		vec_push(&a->reach_off, a->reach.n);
		int to = r->edges[r->off[h] + k].to;
		bool dup = false;
		for (int j = 0; j < k && !dup; j++)
			dup = r->edges[r->off[h] + j].to == to;
		if (dup)
			continue;
		next_stamp(a, n);
		reach_from(r, a, to, h, &a->reach);
		for (int i = a->reach_off.v[k]; i < a->reach.n; i++) {
			int v = a->reach.v[i];
			if (a->cstamp[v] != a->hcur)
				a->cstamp[v] = a->hcur, a->cnt[v] = 0;
			a->cnt[v]++;
		}
	}
	vec_push(&a->reach_off, a->reach.n);
	for (int k = 0; k < ne; k++) {
		int to = r->edges[r->off[h] + k].to;
		int other_lines = 0;
		for (int j = 0; j < ne; j++)
			other_lines += j != k && r->edges[r->off[h] + j].to == to;
		if (other_lines)
			continue; /* another #include of the same file stays */
		int64_t b = 0;
		for (int i = a->reach_off.v[k]; i < a->reach_off.v[k + 1]; i++)
			if (a->cnt[a->reach.v[i]] == 1)
				b += r->lines[a->reach.v[i]];
		r->brings[row][k] = b;
	}
}

static void *alone_worker(void *arg)
{
	Report *r = arg;
	AloneScratch a = {0};
	a.stamp = xcalloc((size_t)r->nfiles + 1, sizeof(uint32_t));
	a.cstamp = xcalloc((size_t)r->nfiles + 1, sizeof(uint32_t));
	a.cnt = xcalloc((size_t)r->nfiles + 1, sizeof(uint32_t));
	for (;;) {
		int row = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
		if (row >= r->in->cost->n)
			break;
		alone(r, &a, row);
	}
	free(a.stamp);
	free(a.cstamp);
	free(a.cnt);
	vec_free(&a.queue);
	vec_free(&a.reach);
	vec_free(&a.reach_off);
	return NULL;
}

/* ---- the document ---- */

static int local_id(Report *r, int file)
{
	if (r->local[file] < 0) {
		r->local[file] = r->paths.n;
		vec_push(&r->paths, file);
	}
	return r->local[file];
}

/* How many TUs a file is in: a header's from the cost table, a .c's 1. */
static uint64_t tus_of(const Report *r, int file)
{
	int row = r->row_of[file];
	return row >= 0 ? r->in->cost->v[row].tus : 1;
}

static const Report *sort_report;

static int by_tus(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	uint64_t tx = tus_of(sort_report, x), ty = tus_of(sort_report, y);
	if (tx != ty)
		return tx < ty ? 1 : -1;
	return strcmp(session_path(sort_report->s, x), session_path(sort_report->s, y));
}

/* A finding's text without the leading "path:line: " the page shows
 * in its own columns. */
static void strip_location(StrBuf *sb, size_t from, const char *path)
{
	size_t plen = strlen(path);
	StrBuf out = {0};
	const char *p = sb->buf + from, *end = sb->buf + sb->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *q = p;
		if ((size_t)(e - q) > plen && !memcmp(q, path, plen) && q[plen] == ':') {
			q += plen + 1;
			while (q < e && *q >= '0' && *q <= '9')
				q++;
			if (q < e && *q == ':')
				q++;
			if (q < e && *q == ' ')
				q++;
		}
		sb_add(&out, q, (size_t)(e - q));
		if (nl)
			sb_addc(&out, '\n');
		p = nl ? nl + 1 : end;
	}
	sb->len = from;
	sb_add(sb, out.buf ? out.buf : "", out.len);
	free(out.buf);
}

static void add_json_text(StrBuf *out, StrBuf *tmp, const char *text)
{
	tmp->len = 0;
	json_string(tmp, text);
	sb_add(out, tmp->buf, tmp->len);
}

static void write_findings(Report *r, int file, int *fi, StrBuf *out)
{
	const ReportInput *in = r->in;
	const FindingVec *fv = in->findings;
	if (!fv || !in->ck)
		return;
	const char *path = session_path(r->s, file);
	StrBuf text = {0}, tmp = {0};
	bool first = true;
	for (; *fi < fv->n && fv->v[*fi].file == file; (*fi)++) {
		const Finding *f = &fv->v[*fi];
		text.len = 0;
		finding_headline(r->s, in->ck, f, &text);
		strip_location(&text, 0, path);
		sb_adds(out, first ? "" : ",");
		first = false;
		sb_addf(out, "[%u,\"%s\",", f->line, check_kind_name(f->kind));
		add_json_text(out, &tmp, sb_str(&text));
		text.len = 0;
		finding_notes(r->s, in->ck, f, in->max_fallout, &text);
		strip_location(&text, 0, path);
		sb_addc(out, ',');
		add_json_text(out, &tmp, sb_str(&text));
		sb_addc(out, ']');
	}
	free(text.buf);
	free(tmp.buf);
}

void report_data(const ReportInput *in, StrBuf *out)
{
	Session *s = in->s;
	Report r = {.in = in, .s = s, .nfiles = s->ft.nfiles};
	int n = r.nfiles;
	phase("report-edges");
	build_edges(&r);
	r.lines = xcalloc((size_t)n + 1, sizeof(uint32_t));
	for (int f = 0; f < n; f++)
		r.lines[f] = s->ft.files[f].facts ? s->ft.files[f].facts->lines : 0;
	r.row_of = xmalloc(((size_t)n + 1) * sizeof(int));
	r.local = xmalloc(((size_t)n + 1) * sizeof(int));
	for (int f = 0; f < n; f++)
		r.row_of[f] = r.local[f] = -1;
	const CostTable *t = in->cost;
	for (int i = 0; i < t->n; i++)
		if (t->v[i].file < n)
			r.row_of[t->v[i].file] = i;
	phase("report-alone");
	r.alone_lines = xcalloc((size_t)t->n + 1, sizeof(int64_t));
	r.alone_headers = xcalloc((size_t)t->n + 1, sizeof(int));
	r.brings = xcalloc((size_t)t->n + 1, sizeof(int64_t *));
	run_threads(alone_worker, &r, s->opt->jobs);

	phase("report-json");
	for (int i = 0; i < t->n; i++)
		local_id(&r, t->v[i].file);
	sb_adds(out, "{\"tree\":");
	json_string(out, s->ft.root);
	sb_addf(out, ",\"mode\":\"%s\",\"tus\":%d,\"files\":%d,\n\"h\":[", s->cfg.exact ? "exact" : "union",
		t->tus, t->files);
	for (int i = 0; i < t->n; i++) {
		const HeaderCost *h = &t->v[i];
		sb_addf(out, "%s[%llu,%llu,%llu,%.6f,%llu,%llu,%llu,%lld,%d]", i ? ",\n" : "",
			(unsigned long long)h->lines, (unsigned long long)h->direct_includers,
			(unsigned long long)h->tus, h->prevalence, (unsigned long long)h->expanded,
			(unsigned long long)h->added, (unsigned long long)h->build_lines,
			(long long)r.alone_lines[i], r.alone_headers[i]);
	}
	/* each header's #include lines: target, line, lines it brings alone,
	 * condition */
	sb_adds(out, "],\n\"inc\":[");
	StrBuf tmp = {0};
	for (int i = 0; i < t->n; i++) {
		int h = t->v[i].file;
		const Facts *fa = s->ft.files[h].facts;
		sb_adds(out, i ? ",\n[" : "[");
		for (int k = r.off[h]; k < r.off[h + 1]; k++) {
			const Edge *e = &r.edges[k];
			sb_addf(out, "%s[%d,%u,%lld,", k > r.off[h] ? "," : "", local_id(&r, e->to), e->line,
				(long long)r.brings[i][k - r.off[h]]);
			char *cond = fa && e->dir >= 0 ? facts_condition(fa, e->dir, NULL) : NULL;
			if (cond)
				add_json_text(out, &tmp, cond);
			else
				sb_adds(out, "null");
			free(cond);
			sb_addc(out, ']');
		}
		sb_addc(out, ']');
	}
	/* includers: how many, and the most used ones */
	sb_adds(out, "],\n\"by\":[");
	IntVec inc = {0};
	sort_report = &r;
	for (int i = 0; i < t->n; i++) {
		int h = t->v[i].file;
		inc.n = 0;
		for (int k = r.roff[h]; k < r.roff[h + 1]; k++)
			vec_push(&inc, r.rev[k]);
		if (inc.n > 1)
			qsort(inc.v, (size_t)inc.n, sizeof(int), by_tus);
		sb_addf(out, "%s[%d,[", i ? ",\n" : "", inc.n);
		for (int k = 0; k < inc.n && k < in->max_includers; k++)
			sb_addf(out, "%s%d", k ? "," : "", local_id(&r, inc.v[k]));
		sb_adds(out, "]]");
	}
	vec_free(&inc);
	/* check's findings, by header */
	sb_adds(out, "],\n\"fd\":[");
	if (in->findings && in->ck)
		check_spelling_prepare(in->ck, in->findings);
	/* a file's findings are consecutive (check sorts them by file) */
	int *first_finding = xmalloc(((size_t)n + 1) * sizeof(int));
	for (int f = 0; f < n; f++)
		first_finding[f] = -1;
	for (int i = (in->findings ? in->findings->n : 0) - 1; i >= 0; i--)
		if (in->findings->v[i].file < n)
			first_finding[in->findings->v[i].file] = i;
	for (int i = 0; i < t->n; i++) {
		int h = t->v[i].file;
		sb_adds(out, i ? ",\n[" : "[");
		int fi = first_finding[h];
		if (fi >= 0)
			write_findings(&r, h, &fi, out);
		sb_addc(out, ']');
	}
	free(first_finding);
	/* proposals */
	sb_adds(out, "],\n\"prop\":{");
	for (int i = 0; i < in->nprops; i++) {
		const Proposal *p = &in->props[i];
		sb_adds(out, i ? ",\n" : "");
		json_string(out, p->header);
		sb_adds(out, ":{\"slim\":");
		sb_adds(out, p->slim && *p->slim ? p->slim : "null");
		sb_adds(out, ",\"split\":");
		sb_adds(out, p->split && *p->split ? p->split : "null");
		sb_addc(out, '}');
	}
	/* the include graph, for chains on demand: every file's edges as
	 * target, line pairs (files numbered as they are met) */
	sb_adds(out, "},\n\"g\":[");
	/* every file of the tree with edges is numbered (a chain may start
	 * at one no header reaches); targets get numbers as they are met */
	for (int g = 0; g < n; g++)
		if (r.off[g + 1] > r.off[g] && fs_in_file_set(&s->ft, g))
			local_id(&r, g);
	for (int i = 0; i < r.paths.n; i++) {
		int f = r.paths.v[i];
		sb_adds(out, i ? ",\n[" : "[");
		for (int k = r.off[f]; k < r.off[f + 1]; k++)
			sb_addf(out, "%s%d,%u", k > r.off[f] ? "," : "", local_id(&r, r.edges[k].to), r.edges[k].line);
		sb_addc(out, ']');
	}
	sb_adds(out, "],\n\"paths\":[");
	for (int i = 0; i < r.paths.n; i++) {
		sb_adds(out, i ? ",\n" : "");
		json_string(out, session_path(s, r.paths.v[i]));
	}
	sb_adds(out, "]}");
	free(tmp.buf);
	for (int i = 0; i < t->n; i++)
		free(r.brings[i]);
	free(r.brings);
	free(r.alone_lines);
	free(r.alone_headers);
	free(r.off);
	free(r.edges);
	free(r.roff);
	free(r.rev);
	free(r.lines);
	free(r.row_of);
	free(r.local);
	vec_free(&r.paths);
}

void report_html(const ReportInput *in, StrBuf *out)
{
	StrBuf data = {0};
	report_data(in, &data);
	const char *mark = strstr(report_template, REPORT_DATA_MARK);
	if (!mark)
		die("report: the page template has no data mark");
	sb_add(out, report_template, (size_t)(mark - report_template));
	/* no '<' inside the script element: \u003c is the same JSON */
	for (const char *p = data.buf, *end = data.buf + data.len; p < end;) {
		const char *lt = memchr(p, '<', (size_t)(end - p));
		sb_add(out, p, (size_t)((lt ? lt : end) - p));
		if (!lt)
			break;
		sb_adds(out, "\\u003c");
		p = lt + 1;
	}
	sb_adds(out, mark + strlen(REPORT_DATA_MARK));
	free(data.buf);
}
