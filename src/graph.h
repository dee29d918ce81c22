/*
 * graph.h — union mode: the include graph of the whole tree, computed
 * once per file, and each TU's closure as a walk over it.
 *
 * A file's edges are its #include lines that are not in a branch known to
 * be false (#if 0, a -U'd macro ...), resolved along a search chain.
 * Unknown conditions keep both sides: the result is the union of every
 * configuration.  Edges are computed per base chain (one per kernel
 * architecture); a TU whose chain only appends directories (the kernel's
 * per-directory -I) shares them, and only the includes that its extra
 * directories could change are resolved again for it.
 *
 * graph_prepare computes everything serially; after it the graph is
 * read-only and graph_tu may run on many threads at once.
 */
#ifndef HDRSLIM_GRAPH_H
#define HDRSLIM_GRAPH_H

#include "config.h"
#include "incpath.h"
#include "tu.h"

typedef struct Graph Graph;

Graph *graph_new(Config *cfg, IncPath *ip, Interner *names);
void graph_free(Graph *g);
/* Computes the edges of every file reachable from the units. */
void graph_prepare(Graph *g, const Unit *units, int nunits);
/* Fills tg with the unit's closure (DFS preorder, include order).  lean:
 * only nodes, succ and post (what the metrics need), no edge list. */
void graph_tu(const Graph *g, const Unit *u, TuGraph *tg, bool lean);
/* Every live edge of a file under the unit's chain, for whole-tree
 * counts (direct includers).  Returns the number of edges; targets in
 * out (file ids, -1 unresolved). */
int graph_file_targets(const Graph *g, int chain, int file, IntVec *out);
/* The same with each edge's directive index in dirs (reads only: safe
 * from several threads once the graph is prepared). */
int graph_file_edges(const Graph *g, int chain, int file, IntVec *out, IntVec *dirs);
/* The parts of a file that some configurations do not compile (under an
 * #if of unknown value, or in a branch known to be skipped), as [from,
 * to) line pairs in *ranges.  Returns the number of pairs. */
int graph_file_unknown(const Graph *g, int chain, int file, const uint32_t **ranges);
/* Edges of a file (computing them if needed) under a chain: used for
 * files no TU reaches.  Not thread-safe. */
void graph_ensure(Graph *g, int chain, int file);

typedef struct {
	int files_with_edges, edges, unresolved, computed_unknown;
} GraphStats;
GraphStats graph_stats(const Graph *g);

#endif
