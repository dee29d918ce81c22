/*
 * metrics.c — per-header cost over all TUs.
 *
 * "added" needs, per TU, the dominator tree of its include graph: X leaves
 * the TU with H exactly when every include path from the TU to X passes
 * through H.  Dominators are computed with the iterative algorithm of
 * Cooper, Harvey and Kennedy over reverse postorder; include graphs are
 * nearly acyclic, so it settles in one or two passes.  Subtree weights
 * then fall out of one sweep in postorder.
 *
 * Union mode walks TUs on all cores, each worker with its own TU graph,
 * scratch arrays and counters, summed at the end.  Exact mode walks them
 * on one thread (the macro table is per walk).
 */
#include "metrics.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

struct DomScratch {
	int cap;
	int *po, *idom, *cand, *seed;
	IntVec back; /* pairs u, w of the edges that close cycles */
	long passes;
	/* dom_preorder: predecessors (CSR), DFS parents, semidominators,
	 * the linked forest and its labels, and a stack for compress */
	IntVec poff, pred, parent, semi, anc, label, stack;
};

DomScratch *dom_new(void)
{
	return xcalloc(1, sizeof(DomScratch));
}

void dom_free(DomScratch *d)
{
	if (!d)
		return;
	free(d->po);
	free(d->idom);
	free(d->cand);
	free(d->seed);
	vec_free(&d->back);
	vec_free(&d->poff);
	vec_free(&d->pred);
	vec_free(&d->parent);
	vec_free(&d->semi);
	vec_free(&d->anc);
	vec_free(&d->label);
	vec_free(&d->stack);
	free(d);
}

/* Nodes are numbered by postorder here: a dominator always has a higher
 * number than the nodes it dominates, and the root the highest. */
static inline int intersect(const int *idom, int a, int b)
{
	while (a != b) {
		while (a < b)
			a = idom[a];
		while (b < a)
			b = idom[b];
	}
	return a;
}

/* Lengauer-Tarjan's EVAL with path compression: the node of least
 * semidominator on the forest path from v up to (not including) its
 * tree's root; v itself when it is a root. */
static int eval(DomScratch *d, int v)
{
	int *anc = d->anc.v, *label = d->label.v;
	const int *semi = d->semi.v;
	if (anc[v] < 0)
		return v;
	d->stack.n = 0;
	for (int x = v; anc[anc[x]] >= 0; x = anc[x])
		vec_push(&d->stack, x);
	anc = d->anc.v;
	while (d->stack.n) {
		int y = d->stack.v[--d->stack.n];
		if (semi[label[anc[y]]] < semi[label[y]])
			label[y] = label[anc[y]];
		anc[y] = anc[anc[y]];
	}
	return label[v];
}

/*
 * Dominator tree weights when the node numbers are a depth-first preorder
 * from node 0 over the successor lists (TuGraph.dfs_preorder): Semi-NCA,
 * one pass whatever the cycles.  Every predecessor u < w of w was on the
 * walk's stack when w was found, so w's tree parent is the greatest of
 * them; semidominators come in decreasing preorder through EVAL, and each
 * node's dominator is the nearest common ancestor of its parent and its
 * semidominator in the tree built so far, in increasing preorder.  A
 * dominator precedes what it dominates, so weights add up in decreasing
 * order.
 */
static void dom_preorder(DomScratch *d, const TuGraph *g, const uint32_t *lines_of_node, uint64_t *weight)
{
	int n = g->nodes.n;
	const int *off = g->succ_off.v, *succ = g->succ.v;
	vec_grow(&d->poff, n + 1);
	memset(d->poff.v, 0, (size_t)(n + 1) * sizeof(int));
	int m = 0;
	for (int v = 0; v < n; v++)
		for (int j = off[v]; j < off[v + 1]; j++)
			if (succ[j] > 0) {
				d->poff.v[succ[j] + 1]++;
				m++;
			}
	for (int v = 0; v < n; v++)
		d->poff.v[v + 1] += d->poff.v[v];
	vec_grow(&d->pred, m + 1);
	vec_grow(&d->parent, n);
	vec_grow(&d->semi, n);
	vec_grow(&d->anc, n);
	vec_grow(&d->label, n);
	int *poff = d->poff.v, *pred = d->pred.v, *parent = d->parent.v;
	int *cursor = d->label.v; /* label is set up after */
	memcpy(cursor, poff, (size_t)n * sizeof(int));
	for (int w = 0; w < n; w++)
		parent[w] = -1;
	for (int v = 0; v < n; v++)
		for (int j = off[v]; j < off[v + 1]; j++) {
			int w = succ[j];
			if (w <= 0)
				continue;
			pred[cursor[w]++] = v;
			if (v < w)
				parent[w] = v; /* v rises: the last one is the greatest */
		}
	for (int w = 0; w < n; w++) {
		d->semi.v[w] = w;
		d->anc.v[w] = -1;
		d->label.v[w] = w;
	}
	for (int w = n - 1; w > 0; w--) {
		int sw = w;
		for (int k = poff[w]; k < poff[w + 1]; k++) {
			int v = pred[k];
			int c = v < w ? v : d->semi.v[eval(d, v)];
			if (c < sw)
				sw = c;
		}
		d->semi.v[w] = sw;
		d->anc.v[w] = parent[w];
	}
	int *idom = d->semi.v; /* reused: semi[w] is read before idom[w] is written */
	for (int w = 1; w < n; w++) {
		int x = parent[w];
		while (x > idom[w])
			x = idom[x];
		idom[w] = x;
	}
	for (int i = 0; i < n; i++)
		weight[i] = lines_of_node[i];
	for (int w = n - 1; w > 0; w--)
		weight[idom[w]] += weight[w];
}

void dom_weights(DomScratch *d, const TuGraph *g, const uint32_t *lines_of_node, uint64_t *weight)
{
	int n = g->nodes.n, np = g->post.n;
	if (n > d->cap) {
		int c = d->cap ? d->cap : 1024;
		while (c < n)
			c *= 2;
		d->po = xrealloc(d->po, (size_t)c * sizeof(int));
		d->idom = xrealloc(d->idom, (size_t)c * sizeof(int));
		d->cand = xrealloc(d->cand, (size_t)c * sizeof(int));
		d->seed = xrealloc(d->seed, (size_t)c * sizeof(int));
		d->cap = c;
	}
	if (g->dfs_preorder) {
		dom_preorder(d, g, lines_of_node, weight);
		return;
	}
	const int *off = g->succ_off.v, *succ = g->succ.v, *post = g->post.v;
	int *po = d->po, *idom = d->idom, *cand = d->cand, *seed = d->seed;
	for (int v = 0; v < n; v++)
		po[v] = -1;
	for (int k = 0; k < np; k++) {
		po[post[k]] = k;
		idom[k] = -1;
		seed[k] = -1;
	}
	int root = n ? po[0] : -1;
	/*
	 * Push-style passes over reverse postorder (k from high to low).  A
	 * forward edge u -> w (w later in reverse postorder) merges u into
	 * w's candidate before w is reached, so on an acyclic graph one pass
	 * is final.  An edge to a node already passed closes a cycle: it is
	 * merged at the end of the pass into a seed that the next pass starts
	 * from, until nothing changes -- the same fixpoint as the iterative
	 * algorithm over predecessors, without building predecessor lists.
	 */
	for (bool changed = true; changed && root >= 0;) {
		changed = false;
		d->passes++;
		d->back.n = 0;
		memcpy(cand, seed, (size_t)np * sizeof(int));
		for (int k = np - 1; k >= 0; k--) {
			int u = post[k];
			int nu = k == root ? root : cand[k];
			if (nu != idom[k]) {
				idom[k] = nu;
				changed = true;
			}
			for (int j = off[u]; j < off[u + 1]; j++) {
				int w = succ[j];
				if (w <= 0)
					continue;
				int pw = po[w];
				if (pw >= k) {
					vec_push(&d->back, k);
					vec_push(&d->back, pw);
					continue;
				}
				int c = cand[pw];
				cand[pw] = c < 0 ? k : c == root ? root : intersect(idom, k, c);
			}
		}
		/* Done when no cycle-closing edge would move its target's
		 * dominator; otherwise seed the next pass with them. */
		bool moves = false;
		for (int i = 0; i < d->back.n && !moves; i += 2) {
			int u = d->back.v[i], w = d->back.v[i + 1];
			moves = idom[w] != root && intersect(idom, u, idom[w]) != idom[w];
		}
		if (!moves)
			break;
		for (int i = 0; i < d->back.n; i += 2) {
			int u = d->back.v[i], w = d->back.v[i + 1];
			int c = seed[w];
			seed[w] = c < 0 ? u : c == root ? root : intersect(idom, u, c);
		}
	}
	for (int i = 0; i < n; i++)
		weight[i] = lines_of_node[i];
	/* postorder: a node before its dominators */
	for (int k = 0; k < np; k++) {
		int v = post[k];
		if (v != 0 && idom[k] >= 0)
			weight[post[idom[k]]] += weight[v];
	}
}

static uint32_t file_lines(Session *s, int file);

void metrics_tu_added(Session *s, TuGraph *g, uint64_t *weight)
{
	tu_build_csr(g);
	int n = g->nodes.n;
	uint32_t *lines = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	for (int i = 0; i < n; i++)
		lines[i] = file_lines(s, g->nodes.v[i]);
	DomScratch *d = dom_new();
	dom_weights(d, g, lines, weight);
	dom_free(d);
	free(lines);
}

/* ---- the whole run ---- */

/* Exact mode: distinct (includer, included) pairs seen in any TU. */
typedef struct {
	uint64_t *slots; /* pair + 1; 0 empty */
	uint32_t mask, used;
} PairSet;

typedef struct {
	Session *s;
	const Unit *units;
	int nunits;
	int *next;
	int *first_unit; /* by file: lowest TU number containing it */
	/* per worker */
	uint32_t *tus;
	uint64_t *added;
	int nfiles;
	uint64_t *direct; /* exact mode only */
	PairSet pairs;    /* exact mode only */
	const uint32_t *lines_of; /* lines by file id, dense: facts are far apart */
	int nlines;
	bool grow;        /* single thread: arrays follow files found */
	Progress *progress;
} Job;

static bool pairset_add(PairSet *ps, int from, int to);
static void job_grow(Job *job, int need);

uint64_t metrics_nodes, metrics_edges, metrics_dom_passes;

static uint32_t file_lines(Session *s, int file)
{
	const Facts *f = s->ft.files[file].facts;
	return f ? f->lines : 0;
}

static void *worker(void *arg)
{
	Job *job = arg;
	Session *s = job->s;
	TuGraph g = {0};
	DomScratch *dom = dom_new();
	VEC(uint32_t) lines = {0};
	VEC(uint64_t) weight = {0};
	for (;;) {
		int u = __atomic_fetch_add(job->next, 1, __ATOMIC_RELAXED);
		if (u >= job->nunits)
			break;
		session_tu_csr(s, &job->units[u], &g);
		int n = g.nodes.n;
		__atomic_add_fetch(&metrics_nodes, (uint64_t)n, __ATOMIC_RELAXED);
		__atomic_add_fetch(&metrics_edges, (uint64_t)g.succ.n, __ATOMIC_RELAXED);
		vec_grow(&weight, n);
		const uint32_t *node_lines = g.lines.v;
		if (g.lines.n != n) { /* exact walk: no lines from the walk */
			vec_grow(&lines, n);
			for (int i = 0; i < n; i++)
				lines.v[i] = g.nodes.v[i] < job->nlines ? job->lines_of[g.nodes.v[i]]
								      : file_lines(s, g.nodes.v[i]);
			node_lines = lines.v;
		}
		dom_weights(dom, &g, node_lines, weight.v);
		if (job->grow) {
			job_grow(job, s->ft.nfiles);
			for (int e = 0; e < g.edges.n; e++) {
				int from = g.nodes.v[g.edges.v[e].from], to = g.nodes.v[g.edges.v[e].to];
				if (g.edges.v[e].dir >= 0 && pairset_add(&job->pairs, from, to))
					job->direct[to]++;
			}
		}
		for (int i = 1; i < n; i++) {
			int f = g.nodes.v[i];
			if (f >= job->nfiles)
				continue;
			job->tus[f]++;
			job->added[f] += weight.v[i];
			/* "expanded" is measured later, in the first TU (by
			 * number) that contains the header, and only for the
			 * headers that are shown: remember that TU */
			int cur = __atomic_load_n(&job->first_unit[f], __ATOMIC_RELAXED);
			while (u < cur && !__atomic_compare_exchange_n(&job->first_unit[f], &cur, u, false,
								       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
				;
		}
		progress_add(job->progress, 1);
	}
	__atomic_add_fetch(&metrics_dom_passes, (uint64_t)dom->passes, __ATOMIC_RELAXED);
	tu_free(&g);
	dom_free(dom);
	vec_free(&lines);
	vec_free(&weight);
	return NULL;
}

static int file_set_member(Session *s, int i)
{
	return s->ft.files[i].facts && fs_in_file_set(&s->ft, i);
}

/* Union mode: every file of the file set, under its own context, counts
 * as an includer of each distinct file it includes. */
static uint64_t *direct_includers_union(Session *s)
{
	IntVec targets = {0};
	int count = s->ft.nfiles;
	for (int i = 0; i < count; i++) {
		if (!file_set_member(s, i))
			continue;
		int ctx = session_ctx_for_file(s, i); /* may add contexts: before ctxs.v is read */
		int chain = s->cfg.ctxs.v[ctx].chain;
		graph_ensure(s->graph, chain, i);
	}
	int nfiles = s->ft.nfiles; /* edges may have found more files */
	uint64_t *direct = xcalloc((size_t)nfiles + 1, sizeof(uint64_t));
	uint32_t *mark = xcalloc((size_t)nfiles + 1, sizeof(uint32_t));
	for (int i = 0; i < count; i++) {
		if (!file_set_member(s, i))
			continue;
		int ctx = session_ctx_for_file(s, i);
		graph_file_targets(s->graph, s->cfg.ctxs.v[ctx].chain, i, &targets);
		for (int k = 0; k < targets.n; k++) {
			int t = targets.v[k];
			if (t < 0 || t >= nfiles || mark[t] == (uint32_t)i + 1)
				continue;
			mark[t] = (uint32_t)i + 1;
			direct[t]++;
		}
	}
	free(mark);
	vec_free(&targets);
	return direct;
}

static bool pairset_add(PairSet *ps, int from, int to)
{
	if ((ps->used + 1) * 2 > ps->mask) {
		uint32_t mask = ps->mask ? ps->mask * 2 + 1 : 4095;
		uint64_t *n = xcalloc((size_t)mask + 1, sizeof(uint64_t));
		for (uint32_t i = 0; ps->slots && i <= ps->mask; i++) {
			uint64_t k = ps->slots[i];
			if (!k)
				continue;
			uint32_t h = (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & mask;
			while (n[h])
				h = (h + 1) & mask;
			n[h] = k;
		}
		free(ps->slots);
		ps->slots = n;
		ps->mask = mask;
	}
	uint64_t k = (((uint64_t)(uint32_t)from << 32) | (uint32_t)to) + 1;
	uint32_t h = (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & ps->mask;
	for (; ps->slots[h]; h = (h + 1) & ps->mask)
		if (ps->slots[h] == k)
			return false;
	ps->slots[h] = k;
	ps->used++;
	return true;
}

/* Grows a single-threaded job's arrays to cover files found on the way. */
static void job_grow(Job *job, int need)
{
	if (need <= job->nfiles)
		return;
	int n = job->nfiles ? job->nfiles : 1024;
	while (n < need)
		n *= 2;
	job->tus = xrealloc(job->tus, (size_t)n * sizeof(uint32_t));
	job->added = xrealloc(job->added, (size_t)n * sizeof(uint64_t));
	job->first_unit = xrealloc(job->first_unit, (size_t)n * sizeof(int));
	job->direct = xrealloc(job->direct, (size_t)n * sizeof(uint64_t));
	memset(job->tus + job->nfiles, 0, (size_t)(n - job->nfiles) * sizeof(uint32_t));
	memset(job->added + job->nfiles, 0, (size_t)(n - job->nfiles) * sizeof(uint64_t));
	for (int i = job->nfiles; i < n; i++)
		job->first_unit[i] = INT32_MAX;
	memset(job->direct + job->nfiles, 0, (size_t)(n - job->nfiles) * sizeof(uint64_t));
	job->nfiles = n;
}

void metrics_compute(Session *s, const Unit *units, int nunits, CostTable *out)
{
	memset(out, 0, sizeof(*out));
	session_lex(s, units, nunits);
	/* union mode: the cache is written while the graph is built, on the
	 * core the graph leaves idle (the few files the graph reads besides
	 * go to the journal at the end) */
	if (s->graph)
		session_save_cache_early(s);
	session_prepare(s, units, nunits);
	uint64_t *direct = NULL;
	phase("includers");
	if (s->graph)
		direct = direct_includers_union(s);
	phase("tu-walks");
	int nfiles = s->ft.nfiles;
	int threads = s->graph ? s->opt->jobs : 1;
	if (threads > 64)
		threads = 64;
	int next = 0;
	Job jobs[64];
	int *first_unit = xmalloc(((size_t)nfiles + 1) * sizeof(int));
	for (int i = 0; i <= nfiles; i++)
		first_unit[i] = INT32_MAX;
	uint32_t *lines_of = xmalloc(((size_t)nfiles + 1) * sizeof(uint32_t));
	for (int i = 0; i < nfiles; i++)
		lines_of[i] = file_lines(s, i);
	Progress *pr = progress_begin(NULL, "TUs walked", nunits);
	for (int t = 0; t < threads; t++)
		jobs[t] = (Job){.s = s, .units = units, .nunits = nunits, .next = &next,
				.first_unit = first_unit, .progress = pr,
				.tus = xcalloc((size_t)nfiles + 1, sizeof(uint32_t)),
				.added = xcalloc((size_t)nfiles + 1, sizeof(uint64_t)),
				.nfiles = nfiles, .lines_of = lines_of, .nlines = nfiles};
	if (!s->graph) {
		jobs[0].direct = xcalloc((size_t)nfiles + 1, sizeof(uint64_t));
		jobs[0].grow = true;
	}
	pthread_t tid[64];
	int started = 0;
	for (int t = 1; t < threads; t++) {
		if (pthread_create(&tid[t], NULL, worker, &jobs[t]) != 0)
			break;
		started = t;
	}
	worker(&jobs[0]);
	for (int t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	progress_end(pr);
	if (!s->graph) {
		nfiles = jobs[0].nfiles;
		first_unit = jobs[0].first_unit;
		direct = jobs[0].direct;
		free(jobs[0].pairs.slots);
	}
	uint32_t *tus = jobs[0].tus;
	uint64_t *added = jobs[0].added;
	for (int t = 1; t < threads; t++) {
		for (int i = 0; i < nfiles; i++) {
			tus[i] += jobs[t].tus[i];
			added[i] += jobs[t].added[i];
		}
		free(jobs[t].tus);
		free(jobs[t].added);
	}
	out->tus = nunits;
	phase("table");
	for (int i = 0; i < nfiles && i < s->ft.nfiles; i++) {
		if (!tus[i] && !direct[i])
			continue;
		HeaderCost h = {.file = i};
		h.lines = file_lines(s, i);
		h.direct_includers = direct[i];
		h.tus = tus[i];
		h.prevalence = nunits ? (double)tus[i] / nunits : 0;
		h.first_unit = first_unit[i];
		h.added = added[i];
		h.build_lines = h.lines * h.tus;
		if (out->n % 1024 == 0)
			out->v = xrealloc(out->v, ((size_t)out->n + 1024) * sizeof(HeaderCost));
		out->v[out->n++] = h;
	}
	for (int i = 0; i < s->ft.nfiles; i++)
		out->files += file_set_member(s, i);
	free(tus);
	free(added);
	free(direct);
	free(lines_of);
	free(first_unit);
}

/* ---- expanded, for the headers shown ---- */

typedef struct {
	Session *s;
	const Unit *units;
	HeaderCost **order; /* sorted by first_unit */
	int n;
	int next;           /* next index into order, taken a TU group at a time */
	pthread_mutex_t lock;
} ExpandJob;

static void *expand_worker(void *arg)
{
	ExpandJob *job = arg;
	Session *s = job->s;
	TuGraph g = {0};
	IntVec queue = {0};
	VEC(uint8_t) seen = {0};
	for (;;) {
		pthread_mutex_lock(&job->lock);
		int from = job->next;
		int to = from;
		while (to < job->n && job->order[to]->first_unit == job->order[from]->first_unit)
			to++;
		job->next = to;
		pthread_mutex_unlock(&job->lock);
		if (from >= job->n)
			break;
		int u = job->order[from]->first_unit;
		if (u == INT32_MAX) {
			for (int k = from; k < to; k++) {
				job->order[k]->expanded = job->order[k]->lines;
				job->order[k]->has_expanded = true;
			}
			continue;
		}
		session_tu_csr(s, &job->units[u], &g);
		int n = g.nodes.n;
		vec_grow(&seen, n);
		for (int k = from; k < to; k++) {
			HeaderCost *h = job->order[k];
			int start = tu_find(&g, h->file);
			if (start < 0) {
				h->expanded = h->lines;
				h->has_expanded = true;
				continue;
			}
			memset(seen.v, 0, (size_t)n);
			queue.n = 0;
			vec_push(&queue, start);
			seen.v[start] = 1;
			uint64_t sum = 0;
			for (int q = 0; q < queue.n; q++) {
				int v = queue.v[q];
				sum += file_lines(s, g.nodes.v[v]);
				for (int j = g.succ_off.v[v]; j < g.succ_off.v[v + 1]; j++) {
					int w = g.succ.v[j];
					if (w >= 0 && !seen.v[w]) {
						seen.v[w] = 1;
						vec_push(&queue, w);
					}
				}
			}
			h->expanded = sum;
			h->has_expanded = true;
		}
	}
	tu_free(&g);
	vec_free(&queue);
	vec_free(&seen);
	return NULL;
}

static int by_first_unit(const void *a, const void *b)
{
	const HeaderCost *x = *(HeaderCost *const *)a, *y = *(HeaderCost *const *)b;
	if (x->first_unit != y->first_unit)
		return x->first_unit < y->first_unit ? -1 : 1;
	return x->file - y->file;
}

void metrics_expand(Session *s, const Unit *units, HeaderCost *v, int n)
{
	if (n <= 0)
		return;
	HeaderCost **order = xmalloc((size_t)n * sizeof(*order));
	for (int i = 0; i < n; i++)
		order[i] = &v[i];
	qsort(order, (size_t)n, sizeof(*order), by_first_unit);
	ExpandJob job = {.s = s, .units = units, .order = order, .n = n};
	pthread_mutex_init(&job.lock, NULL);
	run_threads(expand_worker, &job, s->graph ? s->opt->jobs : 1);
	pthread_mutex_destroy(&job.lock);
	free(order);
}

void metrics_free(CostTable *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* ---- kept results ---- */

#define NO_EXPANDED UINT64_MAX

void metrics_pack(Session *s, const CostTable *t, StrBuf *out)
{
	int32_t head[3] = {t->tus, t->files, t->n};
	sb_add(out, (const char *)head, sizeof head);
	for (int i = 0; i < t->n; i++) {
		const HeaderCost *h = &t->v[i];
		const char *k = session_path(s, h->file);
		uint64_t v[6] = {h->lines, h->direct_includers, h->tus, h->added,
				 h->has_expanded ? h->expanded : NO_EXPANDED, (uint64_t)(int64_t)h->first_unit};
		uint32_t klen = (uint32_t)strlen(k);
		sb_add(out, (const char *)v, sizeof v);
		sb_add(out, (const char *)&klen, sizeof klen);
		sb_add(out, k, klen);
	}
}

bool metrics_unpack(Session *s, const char *p, size_t n, CostTable *t)
{
	memset(t, 0, sizeof(*t));
	int32_t head[3];
	if (n < sizeof head)
		return false;
	memcpy(head, p, sizeof head);
	const char *q = p + sizeof head, *end = p + n;
	/* a row is six u64, a u32 path length and at least one byte */
	if (head[0] < 0 || head[1] < 0 || head[2] < 0 || (size_t)head[2] > n / (6 * 8 + 4 + 1))
		return false;
	t->tus = head[0];
	t->files = head[1];
	t->v = xcalloc((size_t)head[2] + 1, sizeof(HeaderCost));
	for (int i = 0; i < head[2]; i++) {
		uint64_t v[6];
		uint32_t klen;
		if ((size_t)(end - q) < sizeof v + sizeof klen)
			goto bad;
		memcpy(v, q, sizeof v);
		memcpy(&klen, q + sizeof v, sizeof klen);
		q += sizeof v + sizeof klen;
		if ((size_t)(end - q) < klen || !klen)
			goto bad;
		char *path = xstrndup(q, klen);
		q += klen;
		/* the kept inputs named every file read, so each is known */
		int file = fs_probe(&s->ft, fs_key(&s->ft, path));
		free(path);
		if (file < 0)
			goto bad;
		HeaderCost *h = &t->v[t->n++];
		h->file = file;
		h->lines = v[0];
		h->direct_includers = v[1];
		h->tus = v[2];
		h->added = v[3];
		h->has_expanded = v[4] != NO_EXPANDED;
		h->expanded = h->has_expanded ? v[4] : 0;
		h->first_unit = (int)(int64_t)v[5];
		h->prevalence = t->tus ? (double)h->tus / t->tus : 0;
		h->build_lines = h->lines * h->tus;
	}
	if (q == end)
		return true;
bad:
	metrics_free(t);
	return false;
}
