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

static void print_make_rule(Session *s, const TuGraph *g, const char *src)
{
	const char *base = strrchr(src, '/');
	base = base ? base + 1 : src;
	const char *dot = strrchr(base, '.');
	size_t n = dot ? (size_t)(dot - base) : strlen(base);
	int col = printf("%.*s.o: %s", (int)n, base, src);
	for (int i = 1; i < g->nodes.n; i++) {
		const char *p = session_path(s, g->nodes.v[i]);
		if (col + 1 + (int)strlen(p) > 78) {
			printf(" \\\n ");
			col = 1;
		}
		col += printf(" %s", p);
	}
	if (s->opt->missing_ok && s->pp)
		for (int i = 0; i < g->missing.n; i++)
			printf(" %s", g->missing.v[i].name);
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
		if (o.make_rules) {
			print_make_rule(&s, &g, session_path(&s, units.v[i].file));
			continue;
		}
		for (int k = 1; k < g.nodes.n; k++)
			printf("%s\n", session_path(&s, g.nodes.v[k]));
		if (o.missing_ok && s.pp)
			for (int k = 0; k < g.missing.n; k++)
				printf("%s\n", g.missing.v[k].name);
	}
	tu_free(&g);
	vec_free(&units);
	session_close(&s);
	options_free(&o);
	return session_status();
}
