/*
 * net.c — reachability and minimum cuts on a header's include graph (see
 * net.h).  The graphs are small (a few hundred files, a few thousand
 * #include lines even for the kernel's heaviest headers), so the cut is
 * Edmonds–Karp with unit capacities: one breadth-first search per edge of
 * the cut, and a cut of a heavy header is a handful of edges.
 */
#include <string.h>

#include "net.h"

int net_add_node(Net *net)
{
	return net->n++;
}

int net_add_edge(Net *net, int from, int to, int tag, bool cuttable)
{
	vec_push(&net->edges, ((NetEdge){from, to, tag, cuttable, false}));
	return net->edges.n - 1;
}

static void net_index(Net *net)
{
	int n = net->n, m = net->edges.n;
	if (net->indexed_n == n && net->indexed_m == m && net->out_off)
		return;
	free(net->out_off);
	free(net->in_off);
	free(net->out);
	free(net->in);
	free(net->flow);
	net->out_off = xcalloc((size_t)n + 1, sizeof(int));
	net->in_off = xcalloc((size_t)n + 1, sizeof(int));
	net->out = xmalloc(((size_t)m + 1) * sizeof(int));
	net->in = xmalloc(((size_t)m + 1) * sizeof(int));
	net->flow = xcalloc((size_t)m + 1, sizeof(int));
	for (int e = 0; e < m; e++) {
		net->out_off[net->edges.v[e].from + 1]++;
		net->in_off[net->edges.v[e].to + 1]++;
	}
	for (int v = 0; v < n; v++) {
		net->out_off[v + 1] += net->out_off[v];
		net->in_off[v + 1] += net->in_off[v];
	}
	int *po = xmalloc(((size_t)n + 1) * sizeof(int)), *pi = xmalloc(((size_t)n + 1) * sizeof(int));
	memcpy(po, net->out_off, ((size_t)n + 1) * sizeof(int));
	memcpy(pi, net->in_off, ((size_t)n + 1) * sizeof(int));
	for (int e = 0; e < m; e++) {
		net->out[po[net->edges.v[e].from]++] = e;
		net->in[pi[net->edges.v[e].to]++] = e;
	}
	free(po);
	free(pi);
	net->indexed_n = n;
	net->indexed_m = m;
}

void net_reach_more(Net *net, int start, const IntVec *without, char *seen, IntVec *reached)
{
	if (seen[start])
		return;
	net_index(net);
	char *cut = xcalloc((size_t)net->edges.n + 1, 1);
	for (int i = 0; without && i < without->n; i++)
		cut[without->v[i]] = 1;
	int qh = reached->n;
	vec_push(reached, start);
	seen[start] = 1;
	while (qh < reached->n) {
		int v = reached->v[qh++];
		for (int i = net->out_off[v]; i < net->out_off[v + 1]; i++) {
			int e = net->out[i], w = net->edges.v[e].to;
			if (!net->edges.v[e].gone && !cut[e] && !seen[w]) {
				seen[w] = 1;
				vec_push(reached, w);
			}
		}
	}
	free(cut);
}

char *net_reach(Net *net, const IntVec *without, int skip)
{
	char *seen = xcalloc((size_t)net->n + 1, 1);
	if (skip == 0)
		return seen;
	if (skip > 0)
		seen[skip] = 1; /* never entered */
	IntVec reached = {0};
	net_reach_more(net, 0, without, seen, &reached);
	if (skip > 0)
		seen[skip] = 0;
	vec_free(&reached);
	return seen;
}

/* Uncut edges that cannot be cut have infinite capacity; cut ones none. */
static bool infinite(const Net *net, int e)
{
	return !net->edges.v[e].cuttable;
}

/* One augmenting path from node 0 to t in the residual network (BFS). */
static bool augment(Net *net, int t, int *prev_edge, int *prev_dir, int *queue, char *seen)
{
	memset(seen, 0, (size_t)net->n);
	int qh = 0, qt = 0;
	queue[qt++] = 0;
	seen[0] = 1;
	while (qh < qt && !seen[t]) {
		int v = queue[qh++];
		for (int i = net->out_off[v]; i < net->out_off[v + 1]; i++) {
			int e = net->out[i], w = net->edges.v[e].to;
			if (seen[w] || net->edges.v[e].gone || (!infinite(net, e) && net->flow[e] >= 1))
				continue;
			seen[w] = 1, prev_edge[w] = e, prev_dir[w] = 1, queue[qt++] = w;
		}
		for (int i = net->in_off[v]; i < net->in_off[v + 1]; i++) {
			int e = net->in[i], w = net->edges.v[e].from;
			if (seen[w] || net->flow[e] <= 0)
				continue;
			seen[w] = 1, prev_edge[w] = e, prev_dir[w] = -1, queue[qt++] = w;
		}
	}
	if (!seen[t])
		return false;
	for (int w = t; w != 0;) {
		int e = prev_edge[w];
		if (prev_dir[w] > 0) {
			net->flow[e]++;
			w = net->edges.v[e].from;
		} else {
			net->flow[e]--;
			w = net->edges.v[e].to;
		}
	}
	return true;
}

bool net_min_cut(Net *net, int t, IntVec *cut)
{
	net_index(net);
	int n = net->n, m = net->edges.n;
	memset(net->flow, 0, ((size_t)m + 1) * sizeof(int));
	int *prev_edge = xmalloc((size_t)n * sizeof(int)), *prev_dir = xmalloc((size_t)n * sizeof(int));
	int *queue = xmalloc((size_t)n * sizeof(int));
	char *seen = xmalloc((size_t)n);
	int flow = 0;
	bool finite = true;
	while (augment(net, t, prev_edge, prev_dir, queue, seen)) {
		if (++flow > m) {
			finite = false;
			break;
		}
	}
	if (finite) {
		/* t's side: the nodes that still reach t in the residual network */
		memset(seen, 0, (size_t)n);
		int qh = 0, qt = 0;
		queue[qt++] = t;
		seen[t] = 1;
		while (qh < qt) {
			int v = queue[qh++];
			for (int i = net->in_off[v]; i < net->in_off[v + 1]; i++) {
				int e = net->in[i], w = net->edges.v[e].from;
				if (!seen[w] && !net->edges.v[e].gone && (infinite(net, e) || net->flow[e] < 1))
					seen[w] = 1, queue[qt++] = w;
			}
			for (int i = net->out_off[v]; i < net->out_off[v + 1]; i++) {
				int e = net->out[i], w = net->edges.v[e].to;
				if (!seen[w] && net->flow[e] > 0)
					seen[w] = 1, queue[qt++] = w;
			}
		}
		for (int e = 0; e < m; e++)
			if (!net->edges.v[e].gone && !seen[net->edges.v[e].from] && seen[net->edges.v[e].to])
				vec_push(cut, e);
	}
	free(prev_edge);
	free(prev_dir);
	free(queue);
	free(seen);
	return finite;
}

void net_free(Net *net)
{
	vec_free(&net->edges);
	free(net->out_off);
	free(net->in_off);
	free(net->out);
	free(net->in);
	free(net->flow);
	memset(net, 0, sizeof(*net));
}
