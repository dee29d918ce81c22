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

void tu_index_dead(TuGraph *g)
{
	int n = g->nodes.n;
	vec_grow(&g->hdead_off, n + 1);
	g->hdead_off.n = n + 1;
	memset(g->hdead_off.v, 0, ((size_t)n + 1) * sizeof(int));
	int *off = g->hdead_off.v;
	/* a node read twice keeps no pairs: off[v + 1] = -1 marks it while
	 * counting */
	for (int k = 0; k + 2 < g->hdead.n; k += 3) {
		int v = (int)g->hdead.v[k];
		if (v > 0 && v < n && g->hdead.v[k + 1] == 0)
			off[v + 1] = -1;
	}
	for (int k = 0; k + 2 < g->hdead.n; k += 3) {
		int v = (int)g->hdead.v[k];
		if (v > 0 && v < n && off[v + 1] >= 0)
			off[v + 1]++;
	}
	for (int v = 0; v < n; v++)
		off[v + 1] = (off[v + 1] < 0 ? 0 : off[v + 1]) + off[v];
	vec_grow(&g->hdead_rng, 2 * off[n] + 1);
	g->hdead_rng.n = 2 * off[n];
	/* walk order is line order within one reading of a node */
	int *at = xcalloc((size_t)n + 1, sizeof(int));
	for (int k = 0; k + 2 < g->hdead.n; k += 3) {
		int v = (int)g->hdead.v[k];
		if (v <= 0 || v >= n || off[v + 1] == off[v])
			continue;
		int i = off[v] + at[v]++;
		g->hdead_rng.v[2 * i] = g->hdead.v[k + 1];
		g->hdead_rng.v[2 * i + 1] = g->hdead.v[k + 2];
	}
	free(at);
}

bool tu_line_dead(const TuGraph *g, int node, uint32_t line)
{
	if (node == 0) {
		for (int k = 0; k + 1 < g->dead.n; k += 2)
			if (line > g->dead.v[k] && line < g->dead.v[k + 1])
				return true;
		return false;
	}
	if (node < 0 || node + 1 >= g->hdead_off.n)
		return false;
	/* pairs in line order, disjoint: the last one starting before line */
	int lo = g->hdead_off.v[node], hi = g->hdead_off.v[node + 1];
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (g->hdead_rng.v[2 * mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > g->hdead_off.v[node] && line < g->hdead_rng.v[2 * (lo - 1) + 1];
}
