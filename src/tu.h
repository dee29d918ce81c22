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
	 * triples in walk order, each reading of a node's text starting with
	 * (node, 0, 0) ((node, 0, 1): a reading inside one of its own, whose
	 * pairs cannot be told apart: none counts).  tu_index_dead makes of
	 * them, per node, the pairs dead in every reading (hdead_rng, node
	 * v's at [hdead_off[v], hdead_off[v + 1])) and those dead in some
	 * only (hpart_rng: <stddef.h>'s offsetof() when <stdio.h> read it
	 * first under __need_size_t). */
	VEC(uint32_t) hdead;
	IntVec hdead_off, hpart_off;
	U32Vec hdead_rng, hpart_rng;
	/* ... and for a node read more than once with pairs dead in some
	 * readings only, the readings: (the TU's #include that brought it
	 * (directive index + 1, 0 forced), first pair, end pair) triples at
	 * [hread_off[v], hread_off[v + 1]), their pairs in hread_pairs */
	IntVec hread_off;
	U32Vec hread, hread_pairs;
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
/* Whether it is dead in some of the node's readings and live in others. */
bool tu_line_partly_dead(const TuGraph *g, int node, uint32_t line);
/* For such a line: the TU's #include directives (index in its facts, -1
 * forced) whose readings of the node have it live, at most max of them;
 * their count. */
int tu_live_readings(const TuGraph *g, int node, uint32_t line, int *dirs, int max);
/* Fills succ_off and succ from nodes and edges. */
void tu_build_succ(TuGraph *g);
/* The same, and post. */
void tu_build_csr(TuGraph *g);

#endif
