/*
 * dot.c — writes the digraphs of deps, why and cost --dot.  Names and
 * labels are always quoted: DOT's unquoted IDs exclude '/' and '.', and a
 * keyword (node, edge, graph) is a valid file name.  Inside quotes only
 * '"' and '\' need escaping; a newline becomes "\n", which a label shows
 * as a line break (and which, since '\' is always doubled, no path can
 * spell otherwise).
 */
#include "dot.h"

#include <stdio.h>
#include <stdlib.h>

#include "facts.h"

void dot_quote(StrBuf *sb, const char *s)
{
	sb_addc(sb, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_addc(sb, '\\'), sb_addc(sb, *p);
		else if (*p == '\n')
			sb_adds(sb, "\\n");
		else
			sb_addc(sb, *p);
	}
	sb_addc(sb, '"');
}

/* The statements go out one by one: a kernel TU's graph has thousands. */
static void flush(StrBuf *sb)
{
	fwrite(sb->buf, 1, sb->len, stdout);
	free(sb->buf);
}

void dot_begin(const char *name, const char *label)
{
	StrBuf sb = {0};
	sb_adds(&sb, "digraph ");
	dot_quote(&sb, name);
	sb_adds(&sb, " {\n\tgraph [label=");
	dot_quote(&sb, label);
	sb_adds(&sb, ", labelloc=t];\n\tnode [shape=box];\n");
	flush(&sb);
}

void dot_end(void)
{
	fputs("}\n", stdout);
}

static void attrs(StrBuf *sb, const char *label, const char *style)
{
	if (!label && !style) {
		sb_adds(sb, ";\n");
		return;
	}
	sb_adds(sb, " [");
	if (label) {
		sb_adds(sb, "label=");
		dot_quote(sb, label);
	}
	if (style) {
		sb_adds(sb, label ? ", style=" : "style=");
		dot_quote(sb, style);
	}
	sb_adds(sb, "];\n");
}

void dot_node(const char *id, const char *label, const char *style)
{
	StrBuf sb = {0};
	sb_addc(&sb, '\t');
	dot_quote(&sb, id);
	attrs(&sb, label, style);
	flush(&sb);
}

void dot_edge(const char *from, const char *to, const char *label, const char *style)
{
	StrBuf sb = {0};
	sb_addc(&sb, '\t');
	dot_quote(&sb, from);
	sb_adds(&sb, " -> ");
	dot_quote(&sb, to);
	attrs(&sb, label, style);
	flush(&sb);
}

void dot_lines(StrBuf *sb, const char *prefix, uint64_t n)
{
	sb_addf(sb, "%s%llu line%s", prefix, (unsigned long long)n, n == 1 ? "" : "s");
}

void dot_tu_node(Session *s, const TuGraph *g, int node)
{
	int file = g->nodes.v[node];
	const Facts *f = s->ft.files[file].facts;
	const char *path = session_path(s, file);
	StrBuf sb = {0};
	sb_adds(&sb, path);
	dot_lines(&sb, "\n", f ? f->lines : 0);
	dot_node(path, sb_str(&sb), NULL);
	free(sb.buf);
}

void dot_tu_edge(Session *s, const TuGraph *g, int e, const uint64_t *weight, bool with_line)
{
	const TuEdge *te = &g->edges.v[e];
	int from = g->nodes.v[te->from], to = g->nodes.v[te->to];
	const Facts *f = s->ft.files[from].facts;
	StrBuf sb = {0};
	if (te->dir < 0 || !f) {
		sb_adds(&sb, "-include");
	} else {
		if (with_line)
			sb_addf(&sb, "%s:%u", session_path(s, from), facts_dirs(f)[te->dir].line);
		char *cond = facts_condition(f, te->dir, NULL);
		if (cond)
			sb_addf(&sb, "%sif %s", sb.len ? "\n" : "", cond);
		free(cond);
	}
	dot_lines(&sb, sb.len ? "\n+" : "+", weight[te->to]);
	dot_edge(session_path(s, from), session_path(s, to), sb_str(&sb), NULL);
	free(sb.buf);
}
