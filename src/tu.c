/*
 * tu.c — the per-TU graph container.  The file -> node map uses epoch
 * marks, so starting the next TU costs nothing however many files the
 * run knows.
 */
#include "tu.h"

#include <stdlib.h>
#include <string.h>

void tu_reset(TuGraph *g, int nfiles)
{
	if (nfiles > g->cap) {
		int cap = g->cap ? g->cap : 1024;
		while (cap < nfiles)
			cap *= 2;
		g->local = xrealloc(g->local, (size_t)cap * sizeof(int));
		g->mark = xrealloc(g->mark, (size_t)cap * sizeof(uint32_t));
		memset(g->mark + g->cap, 0, (size_t)(cap - g->cap) * sizeof(uint32_t));
		g->cap = cap;
	}
	if (++g->epoch == 0) {
		memset(g->mark, 0, (size_t)g->cap * sizeof(uint32_t));
		g->epoch = 1;
	}
	g->nodes.n = 0;
	g->edges.n = 0;
	g->missing.n = 0;
}

void tu_free(TuGraph *g)
{
	vec_free(&g->nodes);
	vec_free(&g->edges);
	vec_free(&g->missing);
	free(g->local);
	free(g->mark);
	memset(g, 0, sizeof(*g));
}

int tu_find(const TuGraph *g, int file)
{
	if (file < 0 || file >= g->cap || g->mark[file] != g->epoch)
		return -1;
	return g->local[file];
}

int tu_node(TuGraph *g, int file, int *added)
{
	if (file >= g->cap) {
		/* files discovered during the walk: grow, keeping marks */
		int cap = g->cap ? g->cap : 1024;
		while (cap <= file)
			cap *= 2;
		g->local = xrealloc(g->local, (size_t)cap * sizeof(int));
		g->mark = xrealloc(g->mark, (size_t)cap * sizeof(uint32_t));
		memset(g->mark + g->cap, 0, (size_t)(cap - g->cap) * sizeof(uint32_t));
		g->cap = cap;
	}
	if (g->mark[file] == g->epoch) {
		if (added)
			*added = 0;
		return g->local[file];
	}
	g->mark[file] = g->epoch;
	g->local[file] = g->nodes.n;
	vec_push(&g->nodes, file);
	if (added)
		*added = 1;
	return g->nodes.n - 1;
}

void tu_edge(TuGraph *g, int from, int to, int dir)
{
	TuEdge e = {from, to, dir};
	vec_push(&g->edges, e);
}
