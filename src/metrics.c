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
#include <stdlib.h>
#include <string.h>

struct DomScratch {
	int cap_nodes, cap_edges;
	int *succ_off, *succ, *pred_off, *pred, *po, *rpo, *idom, *stack, *iter;
};

DomScratch *dom_new(void)
{
	return xcalloc(1, sizeof(DomScratch));
}

void dom_free(DomScratch *d)
{
	if (!d)
		return;
	free(d->succ_off);
	free(d->succ);
	free(d->pred_off);
	free(d->pred);
	free(d->po);
	free(d->rpo);
	free(d->idom);
	free(d->stack);
	free(d->iter);
	free(d);
}

static void dom_reserve(DomScratch *d, int n, int m)
{
	if (n + 1 > d->cap_nodes) {
		int c = d->cap_nodes ? d->cap_nodes : 1024;
		while (c < n + 1)
			c *= 2;
		int **arrays[] = {&d->succ_off, &d->pred_off, &d->po, &d->rpo, &d->idom, &d->stack, &d->iter};
		for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
			*arrays[i] = xrealloc(*arrays[i], (size_t)c * sizeof(int));
		d->cap_nodes = c;
	}
	if (m > d->cap_edges) {
		int c = d->cap_edges ? d->cap_edges : 4096;
		while (c < m)
			c *= 2;
		d->succ = xrealloc(d->succ, (size_t)c * sizeof(int));
		d->pred = xrealloc(d->pred, (size_t)c * sizeof(int));
		d->cap_edges = c;
	}
}

/* CSR successor and predecessor lists. */
static void build_adjacency(DomScratch *d, const TuGraph *g)
{
	int n = g->nodes.n, m = g->edges.n;
	dom_reserve(d, n, m);
	memset(d->succ_off, 0, (size_t)(n + 1) * sizeof(int));
	memset(d->pred_off, 0, (size_t)(n + 1) * sizeof(int));
	for (int i = 0; i < m; i++) {
		d->succ_off[g->edges.v[i].from + 1]++;
		d->pred_off[g->edges.v[i].to + 1]++;
	}
	for (int i = 0; i < n; i++) {
		d->succ_off[i + 1] += d->succ_off[i];
		d->pred_off[i + 1] += d->pred_off[i];
	}
	/* fill using iter/stack as cursors */
	memcpy(d->iter, d->succ_off, (size_t)n * sizeof(int));
	memcpy(d->stack, d->pred_off, (size_t)n * sizeof(int));
	for (int i = 0; i < m; i++) {
		const TuEdge *e = &g->edges.v[i];
		d->succ[d->iter[e->from]++] = e->to;
		d->pred[d->stack[e->to]++] = e->from;
	}
}

static int intersect(const DomScratch *d, int a, int b)
{
	while (a != b) {
		while (d->po[a] < d->po[b])
			a = d->idom[a];
		while (d->po[b] < d->po[a])
			b = d->idom[b];
	}
	return a;
}

void dom_weights(DomScratch *d, const TuGraph *g, const uint32_t *lines_of_node, uint64_t *weight)
{
	int n = g->nodes.n;
	build_adjacency(d, g);
	/* iterative DFS from the root for postorder numbers */
	for (int i = 0; i < n; i++) {
		d->po[i] = -1;
		d->idom[i] = -1;
	}
	int sp = 0, count = 0;
	bool back_edges = false;
	d->stack[sp] = 0;
	d->iter[0] = d->succ_off[0];
	d->po[0] = -2; /* on stack */
	sp = 1;
	while (sp) {
		int v = d->stack[sp - 1];
		if (d->iter[v] < d->succ_off[v + 1]) {
			int w = d->succ[d->iter[v]++];
			if (d->po[w] == -1) {
				d->po[w] = -2;
				d->iter[w] = d->succ_off[w];
				d->stack[sp++] = w;
			} else if (d->po[w] == -2) {
				back_edges = true;
			}
			continue;
		}
		sp--;
		d->po[v] = count;
		d->rpo[n - 1 - count] = v;
		count++;
	}
	/* nodes not reached from the root (cannot happen for a TU graph,
	 * but a damaged one must not loop) */
	int first = n - count;
	d->idom[0] = 0;
	/* On an acyclic graph every predecessor precedes its successor in
	 * reverse postorder, so one pass is final; cycles need the fixpoint. */
	bool changed = true;
	while (changed) {
		changed = false;
		for (int k = first; k < n; k++) {
			int v = d->rpo[k];
			if (v == 0)
				continue;
			int nd = -1;
			for (int j = d->pred_off[v]; j < d->pred_off[v + 1]; j++) {
				int p = d->pred[j];
				if (d->po[p] < 0 || d->idom[p] < 0)
					continue;
				nd = nd < 0 ? p : intersect(d, p, nd);
			}
			if (nd != d->idom[v]) {
				d->idom[v] = nd;
				changed = true;
			}
		}
		if (!back_edges)
			break;
	}
	for (int i = 0; i < n; i++)
		weight[i] = lines_of_node[i];
	/* postorder: children before their dominators */
	for (int k = n - 1; k >= first; k--) {
		int v = d->rpo[k];
		if (v != 0 && d->idom[v] >= 0)
			weight[d->idom[v]] += weight[v];
	}
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
	uint8_t *expanded_done;
	uint64_t *expanded;
	/* per worker */
	uint32_t *tus;
	uint64_t *added;
	int nfiles;
	uint64_t *direct; /* exact mode only */
	PairSet pairs;    /* exact mode only */
	bool grow;        /* single thread: arrays follow files found */
} Job;

static bool pairset_add(PairSet *ps, int from, int to);
static void job_grow(Job *job, int need);

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
	IntVec queue = {0};
	VEC(uint8_t) seen = {0};
	for (;;) {
		int u = __atomic_fetch_add(job->next, 1, __ATOMIC_RELAXED);
		if (u >= job->nunits)
			break;
		session_tu(s, &job->units[u], &g);
		int n = g.nodes.n;
		vec_grow(&lines, n);
		vec_grow(&weight, n);
		for (int i = 0; i < n; i++)
			lines.v[i] = file_lines(s, g.nodes.v[i]);
		dom_weights(dom, &g, lines.v, weight.v);
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
			if (__atomic_exchange_n(&job->expanded_done[f], 1, __ATOMIC_RELAXED))
				continue;
			/* expanded: BFS from the node within this TU's graph,
			 * using the successor lists dom_weights built */
			vec_grow(&seen, n);
			memset(seen.v, 0, (size_t)n);
			queue.n = 0;
			vec_push(&queue, i);
			seen.v[i] = 1;
			uint64_t sum = 0;
			for (int q = 0; q < queue.n; q++) {
				int v = queue.v[q];
				sum += lines.v[v];
				for (int j = dom->succ_off[v]; j < dom->succ_off[v + 1]; j++) {
					int w = dom->succ[j];
					if (!seen.v[w]) {
						seen.v[w] = 1;
						vec_push(&queue, w);
					}
				}
			}
			job->expanded[f] = sum;
		}
	}
	tu_free(&g);
	dom_free(dom);
	vec_free(&lines);
	vec_free(&weight);
	vec_free(&queue);
	vec_free(&seen);
	return NULL;
}

static int file_set_member(Session *s, int i)
{
	File *f = &s->ft.files[i];
	if (!(f->flags & F_IN_TREE) || (f->flags & F_EXCLUDED) || !f->facts)
		return 0;
	const char *k = fs_keystr(&s->ft, f->key);
	size_t n = strlen(k);
	return n > 2 && k[n - 2] == '.' && (k[n - 1] == 'c' || k[n - 1] == 'h');
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
		int ctx = s->kernel ? kernel_ctx_for(s->kernel, s->ft.files[i].key) : s->default_ctx;
		int chain = s->cfg.ctxs.v[ctx].chain;
		graph_ensure(s->graph, chain, i);
	}
	int nfiles = s->ft.nfiles; /* edges may have found more files */
	uint64_t *direct = xcalloc((size_t)nfiles + 1, sizeof(uint64_t));
	uint32_t *mark = xcalloc((size_t)nfiles + 1, sizeof(uint32_t));
	for (int i = 0; i < count; i++) {
		if (!file_set_member(s, i))
			continue;
		int ctx = s->kernel ? kernel_ctx_for(s->kernel, s->ft.files[i].key) : s->default_ctx;
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
	job->expanded = xrealloc(job->expanded, (size_t)n * sizeof(uint64_t));
	job->expanded_done = xrealloc(job->expanded_done, (size_t)n);
	job->direct = xrealloc(job->direct, (size_t)n * sizeof(uint64_t));
	memset(job->tus + job->nfiles, 0, (size_t)(n - job->nfiles) * sizeof(uint32_t));
	memset(job->added + job->nfiles, 0, (size_t)(n - job->nfiles) * sizeof(uint64_t));
	memset(job->expanded + job->nfiles, 0, (size_t)(n - job->nfiles) * sizeof(uint64_t));
	memset(job->expanded_done + job->nfiles, 0, (size_t)(n - job->nfiles));
	memset(job->direct + job->nfiles, 0, (size_t)(n - job->nfiles) * sizeof(uint64_t));
	job->nfiles = n;
}

void metrics_compute(Session *s, const Unit *units, int nunits, CostTable *out)
{
	memset(out, 0, sizeof(*out));
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
	uint8_t *expanded_done = xcalloc((size_t)nfiles + 1, 1);
	uint64_t *expanded = xcalloc((size_t)nfiles + 1, sizeof(uint64_t));
	for (int t = 0; t < threads; t++)
		jobs[t] = (Job){s, units, nunits, &next, expanded_done, expanded,
				xcalloc((size_t)nfiles + 1, sizeof(uint32_t)),
				xcalloc((size_t)nfiles + 1, sizeof(uint64_t)), nfiles, NULL, {0}, false};
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
	if (!s->graph) {
		nfiles = jobs[0].nfiles;
		expanded = jobs[0].expanded;
		expanded_done = jobs[0].expanded_done;
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
		h.expanded = expanded[i] ? expanded[i] : h.lines;
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
	free(expanded);
	free(expanded_done);
}

void metrics_free(CostTable *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
