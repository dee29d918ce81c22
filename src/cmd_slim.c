/*
 * cmd_slim.c — `hdrslim slim TREE HEADER`: where a header's weight comes
 * from, and which #include lines must go for it to leave.
 *
 * The model is HEADER preprocessed on its own: the include graph rooted
 * at HEADER (union of every configuration unless one is given), each
 * node weighing its file's physical lines.  A header X in that closure
 * "brings" the lines of everything it dominates (what would leave with
 * it).  The headers are ranked by that; for each of the heaviest, a
 * minimum cut of the include graph between HEADER and X gives the fewest
 * #include lines (HEADER's own or deeper) whose removal takes X out of
 * the closure, and the lines HEADER alone would have after that cut.
 * Each cut line is classified by what check sees of its file's uses:
 * nothing (drop it), tags through pointers only (declare them), or
 * needed (the declarations that use it must move, or its provider be
 * split into types and API).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "commands.h"
#include "decl.h"
#include "facts.h"
#include "intern.h"
#include "metrics.h"
#include "session.h"
#include "util.h"

/* names listed per class of a needed line */
enum { MAX_NAMES = 4 };

typedef struct {
	int edge;       /* index in the TU graph's edges */
	int kind;       /* -1 needed, else the check finding's kind */
	const Finding *finding;
	char *why;      /* needed: what the file uses from the far side */
} CutLine;

typedef struct {
	int node;                /* X */
	uint64_t brings;         /* dominated lines */
	VEC(CutLine) cut;
	uint64_t lines_after;    /* HEADER alone once the cut lines are gone */
	int headers_after;
} Heavy;

typedef struct {
	Session *s;
	TuGraph g;
	uint32_t *lines;         /* by node */
	uint64_t total;
	/* a flow network over the edges: edge e from g.edges.v[e].from to
	 * .to, capacity 1; residual by flow[e] */
	int *out_off, *out;      /* by node: edge indexes leaving it */
	int *in_off, *in;        /* by node: edge indexes entering it */
	int *flow;
	char *editable;          /* by node: the file is in the tree */
	VEC(Heavy) heavy;
} Slim;

static void build_adjacency(Slim *sl)
{
	int n = sl->g.nodes.n, m = sl->g.edges.n;
	sl->out_off = xcalloc((size_t)n + 1, sizeof(int));
	sl->in_off = xcalloc((size_t)n + 1, sizeof(int));
	sl->out = xmalloc(((size_t)m + 1) * sizeof(int));
	sl->in = xmalloc(((size_t)m + 1) * sizeof(int));
	sl->flow = xcalloc((size_t)m + 1, sizeof(int));
	for (int e = 0; e < m; e++) {
		sl->out_off[sl->g.edges.v[e].from + 1]++;
		sl->in_off[sl->g.edges.v[e].to + 1]++;
	}
	for (int v = 0; v < n; v++) {
		sl->out_off[v + 1] += sl->out_off[v];
		sl->in_off[v + 1] += sl->in_off[v];
	}
	int *po = xmalloc(((size_t)n + 1) * sizeof(int)), *pi = xmalloc(((size_t)n + 1) * sizeof(int));
	memcpy(po, sl->out_off, ((size_t)n + 1) * sizeof(int));
	memcpy(pi, sl->in_off, ((size_t)n + 1) * sizeof(int));
	for (int e = 0; e < m; e++) {
		sl->out[po[sl->g.edges.v[e].from]++] = e;
		sl->in[pi[sl->g.edges.v[e].to]++] = e;
	}
	free(po);
	free(pi);
}

/* An edge that cannot be cut: a forced -include, a self-loop, or an
 * #include in a file outside the tree (a system header is not ours to
 * edit). */
static bool uncuttable(const Slim *sl, int e)
{
	const TuEdge *te = &sl->g.edges.v[e];
	return te->dir < 0 || te->from == te->to || !sl->editable[te->from];
}

/* One augmenting path from node 0 to t in the residual network (BFS);
 * true when one was found and pushed.  Uncuttable edges have infinite
 * capacity. */
static bool augment(Slim *sl, int t, int *prev_edge, int *prev_dir, int *queue, char *seen)
{
	int n = sl->g.nodes.n;
	memset(seen, 0, (size_t)n);
	int qh = 0, qt = 0;
	queue[qt++] = 0;
	seen[0] = 1;
	while (qh < qt && !seen[t]) {
		int v = queue[qh++];
		for (int i = sl->out_off[v]; i < sl->out_off[v + 1]; i++) {
			int e = sl->out[i], w = sl->g.edges.v[e].to;
			if (seen[w] || (!uncuttable(sl, e) && sl->flow[e] >= 1))
				continue;
			seen[w] = 1, prev_edge[w] = e, prev_dir[w] = 1, queue[qt++] = w;
		}
		for (int i = sl->in_off[v]; i < sl->in_off[v + 1]; i++) {
			int e = sl->in[i], w = sl->g.edges.v[e].from;
			if (seen[w] || sl->flow[e] <= 0)
				continue;
			seen[w] = 1, prev_edge[w] = e, prev_dir[w] = -1, queue[qt++] = w;
		}
	}
	if (!seen[t])
		return false;
	for (int w = t; w != 0;) {
		int e = prev_edge[w];
		if (prev_dir[w] > 0) {
			sl->flow[e]++;
			w = sl->g.edges.v[e].from;
		} else {
			sl->flow[e]--;
			w = sl->g.edges.v[e].to;
		}
	}
	return true;
}

/* The minimum cut between node 0 and t closest to t: the nodes that still
 * reach t in the residual network form t's side; the cut is every edge
 * entering that side from outside.  Returns false when no finite cut
 * exists (t is reached through forced includes only). */
static bool min_cut(Slim *sl, int t, IntVec *cut)
{
	int n = sl->g.nodes.n, m = sl->g.edges.n;
	memset(sl->flow, 0, ((size_t)m + 1) * sizeof(int));
	int *prev_edge = xmalloc((size_t)n * sizeof(int)), *prev_dir = xmalloc((size_t)n * sizeof(int));
	int *queue = xmalloc((size_t)n * sizeof(int));
	char *seen = xmalloc((size_t)n);
	int flow = 0;
	bool finite = true;
	while (augment(sl, t, prev_edge, prev_dir, queue, seen)) {
		if (++flow > m) {
			finite = false;
			break;
		}
	}
	if (finite) {
		/* t's side: reverse residual search from t */
		memset(seen, 0, (size_t)n);
		int qh = 0, qt = 0;
		queue[qt++] = t;
		seen[t] = 1;
		while (qh < qt) {
			int v = queue[qh++];
			for (int i = sl->in_off[v]; i < sl->in_off[v + 1]; i++) {
				int e = sl->in[i], w = sl->g.edges.v[e].from;
				if (!seen[w] && (uncuttable(sl, e) || sl->flow[e] < 1))
					seen[w] = 1, queue[qt++] = w;
			}
			for (int i = sl->out_off[v]; i < sl->out_off[v + 1]; i++) {
				int e = sl->out[i], w = sl->g.edges.v[e].to;
				if (!seen[w] && sl->flow[e] > 0)
					seen[w] = 1, queue[qt++] = w;
			}
		}
		for (int e = 0; e < m; e++)
			if (!seen[sl->g.edges.v[e].from] && seen[sl->g.edges.v[e].to])
				vec_push(cut, e);
	}
	free(prev_edge);
	free(prev_dir);
	free(queue);
	free(seen);
	return finite;
}

/* HEADER alone without the given edges: lines and headers still reached. */
static void closure_without(const Slim *sl, const IntVec *cut, uint64_t *lines, int *headers, char **stays)
{
	int n = sl->g.nodes.n, m = sl->g.edges.n;
	char *gone = xcalloc((size_t)m + 1, 1), *seen = xcalloc((size_t)n, 1);
	int *queue = xmalloc((size_t)n * sizeof(int));
	for (int i = 0; i < cut->n; i++)
		gone[cut->v[i]] = 1;
	int qh = 0, qt = 0;
	queue[qt++] = 0;
	seen[0] = 1;
	*lines = 0;
	while (qh < qt) {
		int v = queue[qh++];
		*lines += sl->lines[v];
		for (int i = sl->out_off[v]; i < sl->out_off[v + 1]; i++) {
			int e = sl->out[i], w = sl->g.edges.v[e].to;
			if (!gone[e] && !seen[w])
				seen[w] = 1, queue[qt++] = w;
		}
	}
	*headers = qt - 1;
	/* and the #include lines themselves, each directive once */
	for (int i = 0; i < cut->n; i++) {
		const TuEdge *e = &sl->g.edges.v[cut->v[i]];
		bool again = false;
		for (int k = 0; k < i && !again; k++) {
			const TuEdge *o = &sl->g.edges.v[cut->v[k]];
			again = o->from == e->from && o->dir == e->dir;
		}
		if (!again && seen[e->from] && *lines)
			(*lines)--;
	}
	free(gone);
	if (stays)
		*stays = seen;
	else
		free(seen);
	free(queue);
}

/* A name as the symbol facts key it: tags apart from ordinary names. */
static int name_id(Interner *in, const Symbols *sy, const SymEntry *e, bool tag)
{
	StrBuf b = {0};
	if (tag)
		sb_addc(&b, '\1');
	sb_add(&b, sym_name(sy, e), e->name_len);
	int id = intern(in, b.buf, b.len);
	free(b.buf);
	return id;
}

/* What file f uses that only the cut's far side provides (the nodes not in
 * stays), in words: the declarations that would have to move with the
 * include, or the complete types a types header would have to give. */
static char *why_needed(Slim *sl, int f, const char *stays)
{
	FileTable *ft = &sl->s->ft;
	Interner *in = interner_new();
	VEC(uint8_t) side = {0}; /* by name id: 1 provided on the near side, 2 far */
	for (int v = 0; v < sl->g.nodes.n; v++) {
		const Symbols *sy = ft->files[sl->g.nodes.v[v]].syms;
		if (!sy)
			continue;
		const SymEntry *p = sym_provides(sy);
		for (uint32_t i = 0; i < sy->nprovides; i++) {
			if (p[i].kind == SK_SEED)
				continue;
			bool tag = p[i].kind == SK_TAG_DEF || p[i].kind == SK_TAG_DECL || p[i].kind == 1;
			int id = name_id(in, sy, &p[i], tag && p[i].kind != SK_TYPEDEF);
			while (side.n <= id)
				vec_push(&side, 0);
			side.v[id] |= stays[v] ? 1 : 2;
		}
	}
	const Symbols *sy = ft->files[f].syms;
	StrBuf inl = {0}, types = {0}, other = {0};
	IntVec seen_ids = {0};
	int ninl = 0, ntypes = 0, nother = 0;
	if (sy) {
		const SymEntry *p = sym_provides(sy), *u = sym_uses(sy);
		for (uint32_t i = 0; i < sy->nuses; i++) {
			int id = name_id(in, sy, &u[i], u[i].flags & UF_TAG);
			if (id >= side.n || side.v[id] != 2)
				continue;
			bool dup = false;
			for (int k = 0; k < seen_ids.n && !dup; k++)
				dup = seen_ids.v[k] == id;
			if (dup)
				continue;
			vec_push(&seen_ids, id);
			/* the definition the use sits in: the nearest provide above */
			const SymEntry *in_def = NULL;
			for (uint32_t k = 0; k < sy->nprovides; k++)
				if (p[k].line <= u[i].line && (!in_def || p[k].line >= in_def->line))
					in_def = &p[k];
			const char *nm = sym_name(sy, &u[i]);
			/* a few names of each class say enough; the count says the rest */
			if ((u[i].flags & UF_TAG) && (u[i].flags & UF_COMPLETE)) {
				if (ntypes++ < MAX_NAMES)
					sb_addf(&types, "%sstruct %.*s", ntypes > 1 ? ", " : "", (int)u[i].name_len, nm);
			} else if (in_def && (in_def->kind == SK_FUNC_DEF || in_def->kind == SK_MACRO) &&
				   !(u[i].flags & UF_COND)) {
				if (ninl++ < MAX_NAMES)
					sb_addf(&inl, "%s%.*s (in %.*s)", ninl > 1 ? ", " : "", (int)u[i].name_len, nm,
						(int)in_def->name_len, sym_name(sy, in_def));
			} else if (nother++ < MAX_NAMES) {
				sb_addf(&other, "%s%s%.*s", nother > 1 ? ", " : "", u[i].flags & UF_TAG ? "struct " : "",
					(int)u[i].name_len, nm);
			}
		}
	}
	StrBuf out = {0};
	if (ntypes)
		sb_addf(&out, "complete types: %s", types.buf);
	if (ntypes > MAX_NAMES)
		sb_addf(&out, " and %d more", ntypes - MAX_NAMES);
	if (ninl)
		sb_addf(&out, "%sin inline or macro bodies: %s", out.len ? "; " : "", inl.buf);
	if (ninl > MAX_NAMES)
		sb_addf(&out, " and %d more", ninl - MAX_NAMES);
	if (nother)
		sb_addf(&out, "%suses %s", out.len ? "; " : "", other.buf);
	if (nother > MAX_NAMES)
		sb_addf(&out, " and %d more", nother - MAX_NAMES);
	free(inl.buf);
	free(types.buf);
	free(other.buf);
	vec_free(&seen_ids);
	vec_free(&side);
	interner_free(in);
	if (!out.len) {
		free(out.buf);
		return NULL;
	}
	return out.buf;
}

static int cmp_heavy(const void *a, const void *b)
{
	const Heavy *x = a, *y = b;
	if (x->brings != y->brings)
		return x->brings < y->brings ? 1 : -1;
	return x->node - y->node;
}

static const char *kind_text(int kind)
{
	switch (kind) {
	case FK_UNUSED: return "drop";
	case FK_FORWARD: return "declare";
	case FK_REDUNDANT: return "redundant";
	case FK_REPLACEABLE: return "replace";
	default: return "needed";
	}
}

/* The check finding about the #include at directive dir of file. */
static const Finding *finding_at(const FindingVec *fv, int file, int dir)
{
	for (int i = 0; i < fv->n; i++)
		if (fv->v[i].file == file && fv->v[i].dir == dir && fv->v[i].kind != FK_MISSING)
			return &fv->v[i];
	return NULL;
}

static unsigned long include_line(Session *s, int file, int dir)
{
	const Facts *fc = fs_facts(&s->ft, file);
	if (!fc || dir < 0 || (uint32_t)dir >= fc->ndirs)
		return 0;
	return facts_dirs(fc)[dir].line;
}

static void print_text(Slim *sl, Check *ck, int top)
{
	Session *s = sl->s;
	int header = sl->g.nodes.v[0];
	printf("%s alone: %llu lines from %d headers\n", session_path(s, header),
	       (unsigned long long)sl->total, sl->g.nodes.n - 1);
	for (int i = 0; i < sl->heavy.n && i < top; i++) {
		Heavy *h = &sl->heavy.v[i];
		int x = sl->g.nodes.v[h->node];
		printf("\n%s brings %llu lines (%.1f%%)", session_path(s, x), (unsigned long long)h->brings,
		       sl->total ? 100.0 * (double)h->brings / (double)sl->total : 0.0);
		printf(": %d #include line%s to cut; then %llu lines from %d headers\n", h->cut.n,
		       h->cut.n == 1 ? "" : "s", (unsigned long long)h->lines_after, h->headers_after);
		for (int c = 0; c < h->cut.n; c++) {
			const CutLine *cl = &h->cut.v[c];
			const TuEdge *e = &sl->g.edges.v[cl->edge];
			int f = sl->g.nodes.v[e->from];
			char *inc = check_written(ck, f, e->dir);
			printf("  %s:%lu: %s: #include %s", session_path(s, f), include_line(s, f, e->dir),
			       kind_text(cl->kind), inc);
			if (cl->finding && cl->finding->kind == FK_FORWARD) {
				StrBuf sb = {0};
				check_sym_list(ck, &cl->finding->syms, 6, &sb);
				printf(" (only pointers to %s)", sb.len ? sb.buf : "its tags");
				free(sb.buf);
			}
			if (cl->kind < 0 && cl->why)
				printf(" (%s)", cl->why);
			printf("\n");
			free(inc);
		}
	}
}

static void print_json(Slim *sl, Check *ck, int top)
{
	Session *s = sl->s;
	StrBuf out = {0};
	sb_addf(&out, "{\"header\": ");
	json_string(&out, session_path(s, sl->g.nodes.v[0]));
	sb_addf(&out, ", \"lines\": %llu, \"headers\": %d, \"heavy\": [", (unsigned long long)sl->total,
		sl->g.nodes.n - 1);
	for (int i = 0; i < sl->heavy.n && i < top; i++) {
		Heavy *h = &sl->heavy.v[i];
		sb_addf(&out, "%s\n  {\"file\": ", i ? "," : "");
		json_string(&out, session_path(s, sl->g.nodes.v[h->node]));
		sb_addf(&out, ", \"brings\": %llu, \"lines_after\": %llu, \"headers_after\": %d, \"cut\": [",
			(unsigned long long)h->brings, (unsigned long long)h->lines_after, h->headers_after);
		for (int c = 0; c < h->cut.n; c++) {
			const CutLine *cl = &h->cut.v[c];
			const TuEdge *e = &sl->g.edges.v[cl->edge];
			int f = sl->g.nodes.v[e->from];
			char *inc = check_written(ck, f, e->dir);
			sb_addf(&out, "%s{\"file\": ", c ? ", " : "");
			json_string(&out, session_path(s, f));
			sb_addf(&out, ", \"line\": %lu, \"include\": ", include_line(s, f, e->dir));
			json_string(&out, inc);
			sb_addf(&out, ", \"class\": \"%s\"", kind_text(cl->kind));
			if (cl->kind < 0 && cl->why) {
				sb_addf(&out, ", \"uses\": ");
				json_string(&out, cl->why);
			}
			sb_addf(&out, "}");
			free(inc);
		}
		sb_addf(&out, "]}");
	}
	sb_addf(&out, "\n]}\n");
	fwrite(out.buf, 1, out.len, stdout);
	free(out.buf);
}

int cmd_slim(int argc, char **argv)
{
	char *top_text = option_value(&argc, argv, "slim", "--top");
	int top = 10;
	if (top_text) {
		char *end;
		long v = strtol(top_text, &end, 10);
		if (*end || v < 1)
			die("slim: --top needs a positive number");
		top = (int)v;
		free(top_text);
	}
	Options o;
	options_parse(&o, argc, argv, "slim", "--json");
	if (o.args.n != 2)
		die("slim: usage: hdrslim slim [OPTIONS] TREE HEADER");
	if (!o.mode)
		o.mode = 2; /* every configuration, as check */
	const char *tree = o.args.v[0], *h = o.args.v[1];
	size_t hl = strlen(h);
	char *rel = hl > 2 && h[0] == '<' && h[hl - 1] == '>' ? xasprintf("include/%.*s", (int)(hl - 2), h + 1)
							      : xstrdup(h);
	char *tree_abs = path_absolute(tree);
	char *abs = path_join(tree_abs, rel);
	if (access(abs, R_OK) != 0)
		die("slim: %s: No such file or directory", rel);
	Session s;
	IntVec files = {0};
	check_open_session(&s, &o, tree, NULL, 0, &files);
	vec_free(&files);
	int header = fs_add(&s.ft, fs_key(&s.ft, abs), 0);

	Slim sl = {.s = &s};
	Unit u = {header, session_ctx_for_file(&s, header)};
	session_tu(&s, &u, &sl.g);
	if (!sl.g.succ_off.n)
		tu_build_csr(&sl.g);
	int n = sl.g.nodes.n;
	sl.lines = xcalloc((size_t)n, sizeof(uint32_t));
	for (int v = 0; v < n; v++) {
		const Facts *fc = fs_facts(&s.ft, sl.g.nodes.v[v]);
		sl.lines[v] = fc ? fc->lines : 0;
		sl.total += sl.lines[v];
	}
	build_adjacency(&sl);
	sl.editable = xmalloc((size_t)n);
	for (int v = 0; v < n; v++)
		sl.editable[v] = session_path(&s, sl.g.nodes.v[v])[0] != '/';
	fs_symbols_all(&s.ft, sl.g.nodes.v, n, o.jobs > 0 ? o.jobs : 1);
	uint64_t *weight = xcalloc((size_t)n, sizeof(uint64_t));
	DomScratch *dom = dom_new();
	dom_weights(dom, &sl.g, sl.lines, weight);
	dom_free(dom);
	for (int v = 1; v < n; v++)
		vec_push(&sl.heavy, ((Heavy){.node = v, .brings = weight[v]}));
	free(weight);
	if (sl.heavy.n > 1)
		qsort(sl.heavy.v, (size_t)sl.heavy.n, sizeof(Heavy), cmp_heavy);

	/* the cuts of the heaviest, and check's findings about their files */
	IntVec cut_files = {0};
	int kept = 0;
	for (int i = 0; i < sl.heavy.n && kept < top; i++) {
		Heavy *hv = &sl.heavy.v[i];
		IntVec cut = {0};
		/* what only forced includes reach stays whatever is cut */
		if (min_cut(&sl, hv->node, &cut) && cut.n) {
			for (int c = 0; c < cut.n; c++) {
				vec_push(&hv->cut, ((CutLine){.edge = cut.v[c], .kind = -1}));
				int f = sl.g.nodes.v[sl.g.edges.v[cut.v[c]].from];
				bool have = false;
				for (int k = 0; k < cut_files.n && !have; k++)
					have = cut_files.v[k] == f;
				if (!have)
					vec_push(&cut_files, f);
			}
			char *stays = NULL;
			closure_without(&sl, &cut, &hv->lines_after, &hv->headers_after, &stays);
			for (int c = 0; c < hv->cut.n; c++)
				hv->cut.v[c].why = why_needed(&sl, sl.g.nodes.v[sl.g.edges.v[hv->cut.v[c].edge].from], stays);
			free(stays);
			sl.heavy.v[kept] = *hv;
			if (hv != &sl.heavy.v[kept])
				memset(&hv->cut, 0, sizeof hv->cut);
			kept++;
		}
		vec_free(&cut);
	}
	for (int i = kept; i < sl.heavy.n; i++)
		vec_free(&sl.heavy.v[i].cut);
	sl.heavy.n = kept;
	Check *ck = check_new(&s, (1u << FK_UNUSED) | (1u << FK_FORWARD) | (1u << FK_REDUNDANT), false);
	FindingVec fv = {0};
	check_run(ck, cut_files.v, cut_files.n, &fv);
	for (int i = 0; i < sl.heavy.n && i < top; i++)
		for (int c = 0; c < sl.heavy.v[i].cut.n; c++) {
			CutLine *cl = &sl.heavy.v[i].cut.v[c];
			const TuEdge *e = &sl.g.edges.v[cl->edge];
			cl->finding = finding_at(&fv, sl.g.nodes.v[e->from], e->dir);
			cl->kind = cl->finding ? cl->finding->kind : -1;
		}
	if (o.json)
		print_json(&sl, ck, top);
	else
		print_text(&sl, ck, top);
	fflush(stdout);

	for (int i = 0; i < sl.heavy.n; i++) {
		for (int c = 0; c < sl.heavy.v[i].cut.n; c++)
			free(sl.heavy.v[i].cut.v[c].why);
		vec_free(&sl.heavy.v[i].cut);
	}
	vec_free(&sl.heavy);
	findings_free(&fv);
	check_free(ck);
	vec_free(&cut_files);
	free(sl.lines);
	free(sl.out_off);
	free(sl.out);
	free(sl.in_off);
	free(sl.in);
	free(sl.flow);
	free(sl.editable);
	tu_free(&sl.g);
	session_close(&s);
	free(abs);
	free(tree_abs);
	free(rel);
	options_free(&o);
	return session_status();
}
