/*
 * net.h — the include graph of one header as a flow network that a plan
 * can edit: nodes are files (or headers a plan would create), edges the
 * #include lines between them, each one alive or cut, cuttable or not
 * (a forced -include, a line in a file outside the tree).  slim asks it
 * two questions: what stays reachable from the header without some
 * edges or without some node, and which fewest cuttable edges separate
 * the header from a node (a minimum cut, every edge of capacity one).
 */
#ifndef HDRSLIM_NET_H
#define HDRSLIM_NET_H

#include <stdbool.h>

#include "util.h"

typedef struct {
	int from, to;
	int tag;        /* the caller's: the TU graph's edge, or -1 for an edge a plan adds */
	bool cuttable;
	bool gone;      /* cut by a plan step */
} NetEdge;

typedef struct {
	int n;                    /* nodes 0..n-1; node 0 is the header */
	VEC(NetEdge) edges;
	/* adjacency of every edge, alive or not; rebuilt on demand */
	int *out_off, *out, *in_off, *in, *flow;
	int indexed_n, indexed_m;
} Net;

int net_add_node(Net *net);
int net_add_edge(Net *net, int from, int to, int tag, bool cuttable);
/* Node 0's reach over alive edges, without the edges in `without` (may
 * be NULL) and never entering node `skip` (-1: none): a malloc'd array
 * of n flags. */
char *net_reach(Net *net, const IntVec *without, int skip);
/* From node `start` over alive edges, without the edges in `without`
 * (may be NULL): the nodes not yet flagged in `seen` (n flags), flagged
 * there and appended to `reached` in breadth-first order. */
void net_reach_more(Net *net, int start, const IntVec *without, char *seen, IntVec *reached);
/* The minimum cut of alive cuttable edges between node 0 and t closest
 * to t, as edge indexes.  False when none exists (t is reached through
 * uncuttable edges alone). */
bool net_min_cut(Net *net, int t, IntVec *cut);
void net_free(Net *net);

#endif
