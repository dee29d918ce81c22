/*
 * cmd_deps.c — `hdrslim deps FILE...`: the headers a translation unit
 * includes, directly or not: the set `gcc -M` lists (in exact mode), or
 * the union over every configuration (union mode).  With --make it
 * prints make rules, so hdrslim serves as a fast makedepend.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
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
	options_parse(&o, argc, argv, "deps", "--make,-MG");
	if (!o.args.n)
		die("deps: no FILE given (usage: hdrslim deps [OPTIONS] FILE...)");
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
