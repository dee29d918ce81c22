/*
 * tu.h — one translation unit's include graph, as the analyses see it.
 *
 * Nodes are the files the TU opens, in first-inclusion order (node 0 is
 * the TU itself; forced -include files hang off it).  Edges are every
 * #include that is live in the TU, including the ones an include guard
 * then makes empty: "what would leave if H went" needs them.  Two
 * producers fill it: the exact walk (pp.c) and the union graph (graph.c).
 */
#ifndef HDRSLIM_TU_H
#define HDRSLIM_TU_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

typedef struct {
	int from, to;  /* node indexes */
	int dir;       /* directive index in the includer's facts; -1 forced */
	int cond;      /* union mode: the #include sits under an #if whose
			* value is unknown, so some configurations skip it */
} TuEdge;

typedef struct {
	int from_file; /* file id */
	int dir;       /* directive index */
	const char *name; /* as spelled (computed: as expanded), NULL: see dir */
	int after;     /* number of nodes when it was met, for -MG order */
	bool certain;  /* missing in every configuration (not under an unknown #if) */
} TuMissing;

typedef struct {
	IntVec nodes;              /* file ids; nodes.v[0] is the TU */
	VEC(TuEdge) edges;         /* not filled by a lean walk */
	VEC(TuMissing) missing;    /* not filled by a lean walk */
	/* The analyses' view: successors of node v are succ[succ_off[v] ..
	 * succ_off[v + 1]) (node indexes, -1 for an include that resolved to
	 * nothing), and post lists the nodes in a depth-first postorder from
	 * node 0.  A lean union walk fills these directly; tu_build_csr makes
	 * them from edges. */
	IntVec succ_off, succ, post;
	/* With want_slots (a lean walk; tu_build_succ always): per successor
	 * slot, the #include's directive index in the includer's facts (-1:
	 * forced) and whether it sits under an #if of unknown value; and a
	 * lean walk then also fills missing. */
	bool want_slots;
	IntVec succ_dir;
	VEC(uint8_t) succ_cond;
	VEC(uint32_t) lines;  /* by node: the file's lines (lean walk only) */
	/* the node numbers are a depth-first preorder from node 0 over the
	 * successor lists, every successor explored (the union walk's): each
	 * predecessor numbered below a node was on the walk's stack when the
	 * node was found */
	bool dfs_preorder;
	/* exact walk: lines of the TU's own file in branches not taken, as
	 * [from, to) pairs (from = the skipped branch's directive) */
	VEC(uint32_t) dead;
	/* exact walk: the same for the other nodes, as (node, from, to)
	 * triples in walk order; (node, 0, 0) says node's text was read more
	 * than once, so no line of it is dead.  tu_index_dead sorts them into
	 * hdead_rng, node v's pairs at [hdead_off[v], hdead_off[v + 1]). */
	VEC(uint32_t) hdead;
	IntVec hdead_off;
	VEC(uint32_t) hdead_rng;
	/* file id -> node index, valid when slot[file].mark == epoch; one
	 * array of pairs so a lookup touches one cache line */
	struct TuSlot {
		uint32_t mark;
		int local;
	} *slot;
	uint32_t epoch;
	int cap;
} TuGraph;

void tu_reset(TuGraph *g, int nfiles);
void tu_free(TuGraph *g);
/* Node index of file, adding it (and returning it in *added). */
int tu_node(TuGraph *g, int file, int *added);
/* Node index of file, or -1. */
int tu_find(const TuGraph *g, int file);
void tu_edge(TuGraph *g, int from, int to, int dir);
void tu_edge_cond(TuGraph *g, int from, int to, int dir, bool cond);
/* Indexes hdead by node (the exact walk calls it when done). */
void tu_index_dead(TuGraph *g);
/* Whether line of node's file lies in a branch the walk did not take
 * (false when nothing was recorded: a union graph). */
bool tu_line_dead(const TuGraph *g, int node, uint32_t line);
/* Fills succ_off and succ from nodes and edges. */
void tu_build_succ(TuGraph *g);
/* The same, and post. */
void tu_build_csr(TuGraph *g);

#endif
