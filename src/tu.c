/*
 * tu.c — the per-TU graph container.  The file -> node map uses epoch
 * marks, so starting the next TU costs nothing however many files the
 * run knows.
 */
#include "tu.h"

#include <stdlib.h>
#include <string.h>

static void grow(TuGraph *g, int need)
{
	if (need <= g->cap)
		return;
	int cap = g->cap ? g->cap : 1024;
	while (cap < need)
		cap *= 2;
	g->slot = xrealloc(g->slot, (size_t)cap * sizeof(*g->slot));
	memset(g->slot + g->cap, 0, (size_t)(cap - g->cap) * sizeof(*g->slot));
	g->cap = cap;
}

void tu_reset(TuGraph *g, int nfiles)
{
	grow(g, nfiles);
	if (++g->epoch == 0) {
		memset(g->slot, 0, (size_t)g->cap * sizeof(*g->slot));
		g->epoch = 1;
	}
	g->nodes.n = 0;
	g->edges.n = 0;
	g->missing.n = 0;
	g->succ_off.n = 0;
	g->succ.n = 0;
	g->succ_dir.n = 0;
	g->succ_cond.n = 0;
	g->post.n = 0;
	g->lines.n = 0;
	g->dead.n = 0;
	g->hdead.n = 0;
	g->hdead_off.n = 0;
	g->hdead_rng.n = 0;
	g->hpart_off.n = 0;
	g->hpart_rng.n = 0;
	g->hread_off.n = 0;
	g->hread.n = 0;
	g->hread_pairs.n = 0;
	g->dfs_preorder = false;
}

void tu_free(TuGraph *g)
{
	vec_free(&g->nodes);
	vec_free(&g->edges);
	vec_free(&g->missing);
	vec_free(&g->succ_off);
	vec_free(&g->succ);
	vec_free(&g->succ_dir);
	vec_free(&g->succ_cond);
	vec_free(&g->post);
	vec_free(&g->lines);
	vec_free(&g->dead);
	vec_free(&g->hdead);
	vec_free(&g->hdead_off);
	vec_free(&g->hdead_rng);
	vec_free(&g->hpart_off);
	vec_free(&g->hpart_rng);
	vec_free(&g->hread_off);
	vec_free(&g->hread);
	vec_free(&g->hread_pairs);
	free(g->slot);
	memset(g, 0, sizeof(*g));
}

int tu_find(const TuGraph *g, int file)
{
	if (file < 0 || file >= g->cap || g->slot[file].mark != g->epoch)
		return -1;
	return g->slot[file].local;
}

int tu_node(TuGraph *g, int file, int *added)
{
	if (file >= g->cap)
		grow(g, file + 1); /* files discovered during an exact walk */
	struct TuSlot *sl = &g->slot[file];
	if (sl->mark == g->epoch) {
		if (added)
			*added = 0;
		return sl->local;
	}
	sl->mark = g->epoch;
	sl->local = g->nodes.n;
	vec_push(&g->nodes, file);
	if (added)
		*added = 1;
	return g->nodes.n - 1;
}

void tu_edge(TuGraph *g, int from, int to, int dir)
{
	tu_edge_cond(g, from, to, dir, false);
}

void tu_edge_cond(TuGraph *g, int from, int to, int dir, bool cond)
{
	TuEdge e = {from, to, dir, cond};
	vec_push(&g->edges, e);
}

void tu_build_succ(TuGraph *g)
{
	int n = g->nodes.n, m = g->edges.n;
	vec_grow(&g->succ_off, n + 1);
	vec_grow(&g->succ, m);
	vec_grow(&g->succ_dir, m);
	vec_grow(&g->succ_cond, m);
	int *off = g->succ_off.v;
	memset(off, 0, (size_t)(n + 1) * sizeof(int));
	for (int i = 0; i < m; i++)
		off[g->edges.v[i].from + 1]++;
	for (int i = 0; i < n; i++)
		off[i + 1] += off[i];
	/* stable fill keeps each node's includes in order; off[v] serves as
	 * v's cursor and ends as off[v + 1], so it is shifted back after */
	for (int i = 0; i < m; i++) {
		const TuEdge *e = &g->edges.v[i];
		int at = off[e->from]++;
		g->succ.v[at] = e->to;
		g->succ_dir.v[at] = e->dir;
		g->succ_cond.v[at] = e->cond != 0;
	}
	memmove(off + 1, off, (size_t)n * sizeof(int));
	off[0] = 0;
	g->succ_off.n = n + 1;
	g->succ.n = m;
	g->succ_dir.n = m;
	g->succ_cond.n = m;
}

void tu_build_csr(TuGraph *g)
{
	tu_build_succ(g);
	int n = g->nodes.n;
	const int *off = g->succ_off.v;
	vec_grow(&g->post, n);
	/* postorder by an iterative depth-first search from node 0 */
	int *cursor = xmalloc(((size_t)n + 1) * sizeof(int));
	uint8_t *state = xcalloc((size_t)n + 1, 1);
	int *stack = xmalloc(((size_t)n + 1) * sizeof(int));
	int sp = 0;
	g->post.n = 0;
	if (n) {
		stack[sp++] = 0;
		state[0] = 1;
		memcpy(cursor, off, ((size_t)n + 1) * sizeof(int));
	}
	while (sp) {
		int v = stack[sp - 1];
		if (cursor[v] < off[v + 1]) {
			int w = g->succ.v[cursor[v]++];
			if (w >= 0 && !state[w]) {
				state[w] = 1;
				stack[sp++] = w;
			}
			continue;
		}
		sp--;
		g->post.v[g->post.n++] = v;
	}
	free(state);
	free(stack);
	free(cursor);
}

/* One node's dead ranges over its k readings, as [a, b) line spans
 * (a = first dead line): the lines dead in all of them go to *all, those
 * dead in some to *some, both as (from, to) pairs, from = a - 1, the
 * way tu_line_dead reads them. */
static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void sweep_readings(uint32_t *ev, int nev, int k, U32Vec *all, U32Vec *some)
{
	/* ev: (line << 1 | start) sorted: at one line, an end before a start */
	qsort(ev, (size_t)nev, sizeof(*ev), cmp_u32);
	int c = 0;
	uint32_t at = 0;
	for (int i = 0; i < nev; i++) {
		uint32_t line = ev[i] >> 1;
		if (line > at && c > 0) {
			U32Vec *to = c == k ? all : some;
			/* extend the last span when they touch */
			if (to->n && to->v[to->n - 1] == at) {
				to->v[to->n - 1] = line;
			} else {
				vec_push(to, at - 1);
				vec_push(to, line);
			}
		}
		c += (ev[i] & 1) ? 1 : -1;
		at = line;
	}
}

void tu_index_dead(TuGraph *g)
{
	int n = g->nodes.n;
	/* the triples by node, walk order kept (counting sort) */
	int *start = xcalloc((size_t)n + 2, sizeof(int));
	for (int k = 0; k + 2 < g->hdead.n; k += 3) {
		int v = (int)g->hdead.v[k];
		if (v > 0 && v < n)
			start[v + 1]++;
	}
	for (int v = 0; v < n; v++)
		start[v + 1] += start[v];
	int *fill = xcalloc((size_t)n + 1, sizeof(int));
	int *order = xmalloc(((size_t)start[n] + 1) * sizeof(int));
	for (int k = 0; k + 2 < g->hdead.n; k += 3) {
		int v = (int)g->hdead.v[k];
		if (v > 0 && v < n)
			order[start[v] + fill[v]++] = k;
	}
	uint32_t *ev = xmalloc(2 * ((size_t)start[n] + 1) * sizeof(uint32_t));
	vec_grow(&g->hdead_off, n + 1);
	vec_grow(&g->hpart_off, n + 1);
	vec_grow(&g->hread_off, n + 1);
	g->hdead_off.n = g->hpart_off.n = g->hread_off.n = n + 1;
	g->hdead_rng.n = g->hpart_rng.n = g->hread.n = g->hread_pairs.n = 0;
	for (int v = 0; v < n; v++) {
		g->hdead_off.v[v] = g->hdead_rng.n / 2;
		g->hpart_off.v[v] = g->hpart_rng.n / 2;
		g->hread_off.v[v] = g->hread.n / 3;
		int nread = 0, nev = 0;
		bool unsure = false;
		for (int i = start[v]; i < start[v + 1]; i++) {
			const uint32_t *t = &g->hdead.v[order[i]];
			if (t[1] == 0) {
				nread++;
				unsure |= t[2] & 1;
				continue;
			}
			/* dead lines from + 1 .. to - 1: a start event at from + 1,
			 * an end at to (an end sorts first at one line) */
			ev[nev++] = (t[1] + 1) << 1 | 1;
			ev[nev++] = t[2] << 1;
		}
		if (unsure || !nev)
			continue; /* all of it live */
		if (nread <= 1) {
			for (int i = 0; i < nev; i += 2) {
				vec_push(&g->hdead_rng, (ev[i] >> 1) - 1);
				vec_push(&g->hdead_rng, ev[i + 1] >> 1);
			}
			continue;
		}
		sweep_readings(ev, nev, nread, &g->hdead_rng, &g->hpart_rng);
		/* the readings themselves, for the lines dead in some only:
		 * (the TU's #include + 1, first pair, end) triples */
		for (int i = start[v]; i < start[v + 1]; i++) {
			const uint32_t *t = &g->hdead.v[order[i]];
			if (t[1] == 0) {
				vec_push(&g->hread, t[2] >> 1);
				vec_push(&g->hread, (uint32_t)g->hread_pairs.n / 2);
				vec_push(&g->hread, (uint32_t)g->hread_pairs.n / 2);
			} else if (g->hread.n) {
				vec_push(&g->hread_pairs, t[1]);
				vec_push(&g->hread_pairs, t[2]);
				g->hread.v[g->hread.n - 1]++;
			}
		}
	}
	g->hdead_off.v[n] = g->hdead_rng.n / 2;
	g->hpart_off.v[n] = g->hpart_rng.n / 2;
	g->hread_off.v[n] = g->hread.n / 3;
	free(start);
	free(fill);
	free(order);
	free(ev);
}

/* Whether line is dead in reading r of its node. */
static bool dead_in_reading(const TuGraph *g, int r, uint32_t line)
{
	const uint32_t *rd = &g->hread.v[3 * r];
	for (uint32_t p = rd[1]; p < rd[2]; p++)
		if (line > g->hread_pairs.v[2 * p] && line < g->hread_pairs.v[2 * p + 1])
			return true;
	return false;
}

int tu_live_readings(const TuGraph *g, int node, uint32_t line, int *dirs, int max)
{
	if (node <= 0 || node + 1 >= g->hread_off.n)
		return 0;
	int k = 0;
	for (int r = g->hread_off.v[node]; r < g->hread_off.v[node + 1] && k < max; r++)
		if (!dead_in_reading(g, r, line))
			dirs[k++] = (int)g->hread.v[3 * r] - 1;
	return k;
}

/* Whether line lies in one of the sorted, disjoint (from, to) pairs
 * rng[off[node] .. off[node + 1]). */
static bool in_pairs(const IntVec *off, const uint32_t *rng, int node, uint32_t line)
{
	if (node < 0 || node + 1 >= off->n)
		return false;
	int lo = off->v[node], hi = off->v[node + 1], first = lo;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (rng[2 * mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > first && line < rng[2 * (lo - 1) + 1];
}

bool tu_line_dead(const TuGraph *g, int node, uint32_t line)
{
	if (node == 0) {
		for (int k = 0; k + 1 < g->dead.n; k += 2)
			if (line > g->dead.v[k] && line < g->dead.v[k + 1])
				return true;
		return false;
	}
	return in_pairs(&g->hdead_off, g->hdead_rng.v, node, line);
}


bool tu_line_partly_dead(const TuGraph *g, int node, uint32_t line)
{
	return node > 0 && in_pairs(&g->hpart_off, g->hpart_rng.v, node, line);
}
