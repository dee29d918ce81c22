/*
 * dot.h — Graphviz output, shared by deps, why and cost --dot: one
 * digraph on stdout, each node named by its file's path.
 *
 * Every name and label is written as a quoted DOT string.  A double quote
 * and a backslash are escaped, so a path names the same node however odd
 * its characters are and a label shows it as it is; a newline in a label
 * ('\n' in the C string) starts a new line of the label.  The commands
 * decide which nodes and edges there are and in which order (always one
 * that does not change between runs); this module only writes them.
 */
#ifndef HDRSLIM_DOT_H
#define HDRSLIM_DOT_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"
#include "tu.h"
#include "util.h"

/* s as a quoted DOT string, appended to sb. */
void dot_quote(StrBuf *sb, const char *s);

/* digraph NAME { with the graph's label (the run, as the text output's
 * first line says it) and the default node shape; dot_end closes it. */
void dot_begin(const char *name, const char *label);
void dot_end(void);
/* A node and an edge; style is a Graphviz style ("dashed") or NULL. */
void dot_node(const char *id, const char *label, const char *style);
void dot_edge(const char *from, const char *to, const char *label, const char *style);

/* "N line(s)" with the plural right, appended to sb: the labels' way of
 * giving a count of lines. */
void dot_lines(StrBuf *sb, const char *prefix, uint64_t n);

/* A TU graph's node, labelled with its path and its own lines; and its
 * edge e, labelled (with_line) with where the #include is, then the #if
 * condition it sits under and the lines its target brings into the TU
 * (weight by node, as metrics_tu_added gives it).  deps and why. */
void dot_tu_node(Session *s, const TuGraph *g, int node);
void dot_tu_edge(Session *s, const TuGraph *g, int e, const uint64_t *weight, bool with_line);

#endif
