/*
 * metrics.h — what each header costs the build (DESIGN.md, "Metrics").
 *
 *   lines             the header's own physical lines
 *   direct_includers  files with a live #include of it
 *   tus               TUs whose closure contains it
 *   prevalence        tus / all TUs
 *   expanded          its lines plus every header it pulls in, each once,
 *                     in the first TU (by number) that includes it
 *   added             summed over TUs: lines that would leave the TU with
 *                     it (it and everything it dominates in the TU graph)
 *   build_lines       lines x tus
 */
#ifndef HDRSLIM_METRICS_H
#define HDRSLIM_METRICS_H

#include <stdint.h>

#include "session.h"

typedef struct {
	int file;
	uint64_t lines, direct_includers, tus, expanded, added, build_lines;
	double prevalence;
	int first_unit; /* the TU "expanded" is measured in */
	bool has_expanded; /* metrics_expand has measured it */
} HeaderCost;

typedef struct {
	HeaderCost *v;
	int n;
	int tus;   /* TUs analysed */
	int files; /* files of the tree's file set */
} CostTable;

/* Totals over the TU graphs of the last run, for --stats. */
extern uint64_t metrics_nodes, metrics_edges, metrics_dom_passes;

void metrics_compute(Session *s, const Unit *units, int nunits, CostTable *out);
/* Fills "expanded" for v[0..n): the other metrics come from one pass
 * over all TUs; this one needs a walk per header, so it is measured only
 * for the headers that will be shown. */
void metrics_expand(Session *s, const Unit *units, HeaderCost *v, int n);
void metrics_free(CostTable *t);
/* The table as bytes, files named by path, for a kept result (memo.h);
 * and back: false when the bytes are not such a table. */
void metrics_pack(Session *s, const CostTable *t, StrBuf *out);
bool metrics_unpack(Session *s, const char *p, size_t n, CostTable *t);

/* Dominator-tree weights of one TU graph: for every node, the lines that
 * leave the TU if that node's #include edges all go away.  weight must
 * hold g->nodes.n entries; lines_of gives a file's lines.  A graph in
 * depth-first preorder (TuGraph.dfs_preorder) takes a one-pass algorithm. */
typedef struct DomScratch DomScratch;
DomScratch *dom_new(void);
void dom_free(DomScratch *d);
void dom_weights(DomScratch *d, const TuGraph *g, const uint32_t *lines_of_node, uint64_t *weight);

/* "added" within one TU: for every node of g (a graph session_tu made,
 * with its edge list; this builds its successor lists), the lines that
 * would leave the TU with it.  weight must hold g->nodes.n entries. */
void metrics_tu_added(Session *s, TuGraph *g, uint64_t *weight);

#endif
