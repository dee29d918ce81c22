/*
 * cmd_deps.c — `hdrslim deps FILE...`: the headers a translation unit
 * includes, directly or not: the set `gcc -M` lists (in exact mode), or
 * the union over every configuration (union mode).  With --make it
 * prints make rules, so hdrslim serves as a fast makedepend; with --dot
 * the TU's include graph for Graphviz, each edge weighed by what its
 * target brings into the TU (its "added" there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dot.h"
#include "metrics.h"
#include "session.h"

/* The headers of a TU in gcc -M order; with -MG the missing ones as
 * spelled, where gcc would list them, each once. */
static void collect(Session *s, const TuGraph *g, StrVec *out)
{
	int m = 0;
	for (int i = 1; i <= g->nodes.n; i++) {
		while (s->opt->missing_ok && m < g->missing.n && g->missing.v[m].after <= i) {
			const TuMissing *mi = &g->missing.v[m++];
			const char *name = mi->name;
			if (!name) {
				const Facts *f = s->ft.files[mi->from_file].facts;
				const Directive *d = &facts_dirs(f)[mi->dir];
				if (d->flags & DF_COMPUTED)
					continue; /* union mode could not expand it */
				name = facts_name(f, d);
			}
			bool dup = false;
			for (int k = 0; k < out->n && !dup; k++)
				dup = !strcmp(out->v[k], name);
			if (!dup)
				vec_push(out, (char *)name);
		}
		if (i < g->nodes.n)
			vec_push(out, (char *)session_path(s, g->nodes.v[i]));
	}
}

/* Union mode: an #include outside every unknown #if that resolves to
 * nothing is missing in every configuration. */
static void report_missing(Session *s, const TuGraph *g)
{
	for (int i = 0; i < g->missing.n; i++) {
		const TuMissing *m = &g->missing.v[i];
		if (!m->certain)
			continue;
		const Facts *f = s->ft.files[m->from_file].facts;
		const Directive *d = &facts_dirs(f)[m->dir];
		if (d->flags & DF_COMPUTED)
			continue;
		if (s->cfg.kernel_generic)
			/* a kernel tree without its build dir lacks every
			 * generated header: not an error of the code */
			warn_at(session_path(s, m->from_file), d->line,
				"%s: No such file or directory (generated? use --build DIR)",
				facts_name(f, d));
		else
			diag(session_path(s, m->from_file), d->line, "%s: No such file or directory",
			     facts_name(f, d));
	}
}

/* With -MG, the headers not found, as dashed nodes named as spelled (as
 * collect lists them), each with the #include lines that name it. */
static void dot_missing(Session *s, const TuGraph *g)
{
	StrVec names = {0};
	for (int i = 0; i < g->missing.n; i++) {
		const TuMissing *mi = &g->missing.v[i];
		const Facts *f = s->ft.files[mi->from_file].facts;
		const Directive *d = &facts_dirs(f)[mi->dir];
		const char *name = mi->name;
		if (!name) {
			if (d->flags & DF_COMPUTED)
				continue;
			name = facts_name(f, d);
		}
		bool dup = false;
		for (int k = 0; k < names.n && !dup; k++)
			dup = !strcmp(names.v[k], name);
		if (!dup) {
			vec_push(&names, (char *)name);
			char *label = xasprintf("%s\nnot found", name);
			dot_node(name, label, "dashed");
			free(label);
		}
		char *cond = facts_condition(f, mi->dir, NULL);
		char *label = cond ? xasprintf("if %s", cond) : NULL;
		dot_edge(session_path(s, mi->from_file), name, label, "dashed");
		free(label);
		free(cond);
	}
	vec_free(&names);
}

/* The TU's graph: a node per file in first-inclusion order, an edge per
 * live #include in the order the walk met them. */
static void print_dot(Session *s, TuGraph *g, const char *src)
{
	uint64_t *weight = xmalloc(((size_t)g->nodes.n + 1) * sizeof(uint64_t));
	metrics_tu_added(s, g, weight);
	char *label = xasprintf("%s: %d header%s, %llu lines (%s mode)", src, g->nodes.n - 1,
				g->nodes.n == 2 ? "" : "s", (unsigned long long)weight[0],
				s->cfg.exact ? "exact" : "union");
	dot_begin(src, label);
	free(label);
	for (int i = 0; i < g->nodes.n; i++)
		dot_tu_node(s, g, i);
	for (int i = 0; i < g->edges.n; i++)
		dot_tu_edge(s, g, i, weight, false);
	if (s->opt->missing_ok)
		dot_missing(s, g);
	dot_end();
	free(weight);
}

static void print_make_rule(const StrVec *deps, const char *src)
{
	const char *base = strrchr(src, '/');
	base = base ? base + 1 : src;
	const char *dot = strrchr(base, '.');
	size_t n = dot ? (size_t)(dot - base) : strlen(base);
	int col = printf("%.*s.o: %s", (int)n, base, src);
	for (int i = 0; i < deps->n; i++) {
		const char *p = deps->v[i];
		if (col + 1 + (int)strlen(p) > 78) {
			printf(" \\\n ");
			col = 1;
		}
		col += printf(" %s", p);
	}
	printf("\n");
}

int cmd_deps(int argc, char **argv)
{
	Options o;
	options_parse(&o, argc, argv, "deps", "--make,-MG,--dot");
	if (!o.args.n)
		die("deps: no FILE given (usage: hdrslim deps [OPTIONS] FILE...)");
	if (o.dot && o.make_rules)
		die("deps: --dot and --make are two outputs; choose one");
	Session s;
	session_open(&s, &o, o.tree ? o.tree : ".", false);
	VEC(Unit) units = {0};
	for (int i = 0; i < o.args.n; i++) {
		Unit u = session_unit_for_path(&s, o.args.v[i]);
		vec_push(&units, u);
	}
	if (o.show_config) {
		StrBuf sb = {0};
		config_show(&s.cfg, units.v[0].ctx, &sb);
		fputs(sb_str(&sb), stdout);
		free(sb.buf);
	}
	session_prepare(&s, units.v, units.n);
	TuGraph g = {0};
	for (int i = 0; i < units.n; i++) {
		session_tu(&s, &units.v[i], &g);
		if (s.graph && !o.missing_ok)
			report_missing(&s, &g);
		if (o.dot) {
			print_dot(&s, &g, session_path(&s, units.v[i].file));
			continue;
		}
		StrVec deps = {0};
		collect(&s, &g, &deps);
		if (o.make_rules)
			print_make_rule(&deps, session_path(&s, units.v[i].file));
		else
			for (int k = 0; k < deps.n; k++)
				printf("%s\n", deps.v[k]);
		vec_free(&deps);
	}
	tu_free(&g);
	vec_free(&units);
	session_close(&s);
	options_free(&o);
	return session_status();
}
