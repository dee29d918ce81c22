/*
 * cmd_split.c — `hdrslim split [OPTIONS] TREE HEADER`: how to cut a
 * "Rome" header into sub-headers, from how the tree uses it.
 *
 * The header is cut into declarations (carve_units: a declaration with its
 * comment, a #define, a whole #if group).  Each declaration's users are
 * the files of the tree that use one of its names and reach the header;
 * its audience is the set of translation units that reach one of those
 * users.  A declaration is rare when its audience is at most --max-share
 * (default 0.25) of the TUs that include the header; the rest is the core
 * that stays.  Groups are runs of rare declarations that follow each
 * other in the file, cut where a new commented section starts, and joined
 * too where a declaration's users are unlike the run's so far (Jaccard
 * similarity of the user files below --similar, default 0.5), and joined
 * again when two neighbouring runs have similar users.  Groups of fewer
 * than --min-lines lines (default 8, counting what their includes bring)
 * stay in the core: not worth a header.  A group may only
 * leave when nothing that stays uses it (else the header would have to
 * include the new one): declarations used from outside stay, until that
 * holds (a struct used only through pointers may leave: the header then
 * needs a forward declaration, which the proposal says).
 *
 * Per group: symbols, lines, the header's includes that only it uses
 * (they go with it), its users, a suggested name, and the saving: its
 * lines (and those its includes bring) leave every TU that includes the
 * header and uses none of it.  --plan FILE writes the proposal as a plan
 * for `hdrslim series` (splits, then back-include removals).
 * --symbol NAME answers for one name: who uses it, and which headers every
 * user already reaches, cheapest (fewest TUs) first.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "apply.h"
#include "carve.h"
#include "check.h"
#include "commands.h"
#include "decl.h"
#include "edit.h"
#include "intern.h"
#include "lex.h"
#include "session.h"

typedef struct {
	Span span;
	int lines;
	StrVec names;
	IntVec users;      /* files using one of its names (and reaching the header) */
	int tus;           /* TUs reaching one of the users */
	bool rare, section, pinned, pointer_only_outside;
	int group;         /* -1: core */
	int definer;       /* --by=definer: the .c file defining most of its
			    * names (-1: none, a type or macro) */
	Symbols *syms;     /* what its own text uses (every use, not only a
			    * name's first one in the header) */
} Atom;

typedef struct {
	IntVec atoms;
	IntVec users;      /* union of the atoms' users, sorted */
	int tus, lines;
	StrVec takes;      /* the header's includes that go with it */
	long extra_lines;  /* lines those includes bring that nothing else does */
	char *name;        /* suggested path, relative to the tree */
	StrVec forward;    /* tags the header must then forward-declare */
	int definer;       /* --by=definer: the implementing .c file */
	bool exists;       /* the suggested header is already there */
} Group;

typedef struct {
	Session *s;
	const char *tree;
	int header;
	const char *header_rel;
	EditFile text;
	const Symbols *sy;
	VEC(Atom) atoms;
	VEC(Group) groups;
	Interner *names;     /* the header's names -> atom_of */
	IntVec atom_of;
	IncludeEdges edges;  /* who includes whom, over all files */
	int nfiles;
	unsigned char *reach_h; /* files that reach the header */
	int header_tus;
	double max_share, similar;
	bool by_definer;
} Split;

/* ---------------------------------------------------------------- graph */

static bool tree_source(Session *s, int f, bool *is_c)
{
	File *fl = &s->ft.files[f];
	const char *k = fs_keystr(&s->ft, fl->key);
	*is_c = ends_with(k, ".c");
	return (fl->flags & F_IN_TREE) && !(fl->flags & F_EXCLUDED) && (*is_c || ends_with(k, ".h"));
}

static void build_reverse(Split *sp)
{
	/* exact mode: who includes whom is what the walks of every root took */
	session_exact_walk(sp->s);
	session_include_edges(sp->s, &sp->edges);
	sp->nfiles = sp->edges.n;
}

/* Marks in seen[] every file that reaches one of the starts (and them);
 * returns how many of those are tree .c files (TUs). */
static int reverse_reach(Split *sp, const int *starts, int n, unsigned char *seen)
{
	memset(seen, 0, (size_t)sp->nfiles);
	IntVec stack = {0};
	for (int i = 0; i < n; i++)
		if (!seen[starts[i]]) {
			seen[starts[i]] = 1;
			vec_push(&stack, starts[i]);
		}
	int tus = 0;
	while (stack.n) {
		int f = stack.v[--stack.n];
		bool is_c;
		if (tree_source(sp->s, f, &is_c) && is_c)
			tus++;
		for (int k = sp->edges.rev_off[f]; k < sp->edges.rev_off[f + 1]; k++)
			if (!seen[sp->edges.rev[k]]) {
				seen[sp->edges.rev[k]] = 1;
				vec_push(&stack, sp->edges.rev[k]);
			}
	}
	vec_free(&stack);
	return tus;
}

/* ---------------------------------------------------------------- atoms */

static int atom_at_line(const Split *sp, int line)
{
	for (int i = 0; i < sp->atoms.n; i++)
		if (line >= sp->atoms.v[i].span.first && line <= sp->atoms.v[i].span.last)
			return i;
	return -1;
}

static bool is_guard_name(const Split *sp, const char *name, size_t n)
{
	const Facts *f = fs_facts(&sp->s->ft, sp->header);
	return f && f->guard >= 0 && f->guard_name_len == n && !memcmp(facts_strs(f) + f->guard_name_off, name, n);
}

/* A blank line (or the file's start) right before a comment: a section. */
static bool starts_section(const EditFile *e, const Span *s)
{
	char *first = edit_line(e, s->first);
	const char *p = first + strspn(first, " \t");
	bool comment = !strncmp(p, "/*", 2) || !strncmp(p, "//", 2);
	free(first);
	if (!comment)
		return false;
	if (s->first == 1)
		return true;
	char *prev = edit_line(e, s->first - 1);
	bool blank = !prev[strspn(prev, " \t\r")];
	free(prev);
	return blank;
}

static void make_atoms(Split *sp)
{
	SpanVec units = {0};
	carve_units(&sp->text, &units);
	for (int i = 0; i < units.n; i++) {
		if (carve_is_include(&sp->text, &units.v[i]))
			continue;
		Atom a = {0};
		a.span = units.v[i];
		a.lines = a.span.last - a.span.first + 1;
		a.group = -1;
		a.definer = -1;
		a.section = starts_section(&sp->text, &a.span);
		vec_push(&sp->atoms, a);
	}
	vec_free(&units);
	sp->names = interner_new();
	for (uint32_t k = 0; k < sp->sy->nprovides; k++) {
		const SymEntry *e = &sym_provides(sp->sy)[k];
		if (e->kind == SK_SEED || e->kind == SK_TAG_DECL || is_guard_name(sp, sym_name(sp->sy, e), e->name_len))
			continue;
		int a = atom_at_line(sp, (int)e->line);
		if (a < 0)
			continue;
		int id = intern(sp->names, sym_name(sp->sy, e), e->name_len);
		while (sp->atom_of.n <= id)
			vec_push(&sp->atom_of, -1);
		if (sp->atom_of.v[id] >= 0)
			continue; /* declared twice (#if branches): one atom */
		sp->atom_of.v[id] = a;
		vec_push(&sp->atoms.v[a].names, xstrndup(sym_name(sp->sy, e), e->name_len));
	}
	LexScratch ls = {0};
	DeclScratch *ds = decl_scratch_new();
	for (int i = 0; i < sp->atoms.n; i++) {
		Atom *a = &sp->atoms.v[i];
		StrBuf text = {0};
		for (int n = a->span.first; n <= a->span.last; n++) {
			char *l = edit_line(&sp->text, n);
			sb_adds(&text, l);
			sb_addc(&text, '\n');
			free(l);
		}
		Facts *f = lex_file(sb_str(&text), text.len, &ls);
		a->syms = decl_file(text.buf, text.len, f, ds);
		free(f);
		free(text.buf);
	}
	decl_scratch_free(ds);
	lex_scratch_free(&ls);
}

static bool sym_provides_name(const Symbols *sy, const char *name, size_t n)
{
	for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
		const SymEntry *e = &sym_provides(sy)[k];
		if (e->kind != SK_SEED && e->name_len == n && !memcmp(sym_name(sy, e), name, n))
			return true;
	}
	return false;
}

static void sorted_union(IntVec *dst, const IntVec *src);

static bool header_declares_function(const Split *sp, const char *name, size_t n)
{
	for (uint32_t k = 0; k < sp->sy->nprovides; k++) {
		const SymEntry *e = &sym_provides(sp->sy)[k];
		if (e->kind == SK_FUNC_DECL && e->name_len == n && !memcmp(sym_name(sp->sy, e), name, n))
			return true;
	}
	return false;
}

/* Who uses each atom: files reaching the header that use one of its names
 * without declaring that name themselves. */
static void find_users(Split *sp)
{
	Session *s = sp->s;
	IntVec all = {0};
	for (int f = 0; f < s->ft.nfiles; f++) {
		bool is_c;
		if (f != sp->header && sp->reach_h[f] && tree_source(s, f, &is_c))
			vec_push(&all, f);
	}
	fs_symbols_all(&s->ft, all.v, all.n, s->opt->jobs);
	for (int i = 0; i < all.n; i++) {
		int f = all.v[i];
		const Symbols *sy = s->ft.files[f].syms;
		if (!sy)
			continue;
		for (uint32_t k = 0; k < sy->nuses; k++) {
			const SymEntry *u = &sym_uses(sy)[k];
			int id = intern_find(sp->names, sym_name(sy, u), u->name_len);
			if (id < 0 || id >= sp->atom_of.n || sp->atom_of.v[id] < 0)
				continue;
			Atom *a = &sp->atoms.v[sp->atom_of.v[id]];
			if (a->users.n && a->users.v[a->users.n - 1] == f)
				continue;
			if (sym_provides_name(sy, sym_name(sy, u), u->name_len))
				continue;
			vec_push(&a->users, f);
		}
	}
	/* a file that defines a function the header declares needs the
	 * prototype: it is a user too */
	for (int i = 0; i < all.n; i++) {
		int f = all.v[i];
		const Symbols *sy = s->ft.files[f].syms;
		for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
			const SymEntry *p = &sym_provides(sy)[k];
			if (p->kind != SK_FUNC_DEF)
				continue;
			int id = intern_find(sp->names, sym_name(sy, p), p->name_len);
			if (id < 0 || id >= sp->atom_of.n || sp->atom_of.v[id] < 0)
				continue;
			if (!header_declares_function(sp, sym_name(sy, p), p->name_len))
				continue;
			Atom *a = &sp->atoms.v[sp->atom_of.v[id]];
			if (!a->users.n || a->users.v[a->users.n - 1] != f)
				vec_push(&a->users, f);
		}
	}
	vec_free(&all);
	unsigned char *seen = xmalloc((size_t)sp->nfiles + 1);
	for (int i = 0; i < sp->atoms.n; i++) {
		Atom *a = &sp->atoms.v[i];
		if (a->users.n > 1) {
			IntVec sorted = {0};
			sorted_union(&sorted, &a->users);
			vec_free(&a->users);
			a->users = sorted;
		}
	}
	for (int i = 0; i < sp->atoms.n; i++) {
		Atom *a = &sp->atoms.v[i];
		a->tus = a->users.n ? reverse_reach(sp, a->users.v, a->users.n, seen) : 0;
		a->rare = a->users.n && a->tus <= sp->max_share * sp->header_tus;
	}
	free(seen);
}

/* ---------------------------------------------------------------- groups */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static void sorted_union(IntVec *dst, const IntVec *src)
{
	for (int i = 0; i < src->n; i++)
		vec_push(dst, src->v[i]);
	if (!dst->n)
		return;
	qsort(dst->v, (size_t)dst->n, sizeof(int), cmp_int);
	int k = 0;
	for (int i = 0; i < dst->n; i++)
		if (!k || dst->v[k - 1] != dst->v[i])
			dst->v[k++] = dst->v[i];
	dst->n = k;
}

static double jaccard(const IntVec *a, const IntVec *b)
{
	int i = 0, j = 0, both = 0;
	while (i < a->n && j < b->n) {
		if (a->v[i] == b->v[j]) {
			both++;
			i++;
			j++;
		} else if (a->v[i] < b->v[j]) {
			i++;
		} else {
			j++;
		}
	}
	int any = a->n + b->n - both;
	return any ? (double)both / any : 0;
}

static void group_users(Split *sp, Group *g)
{
	g->users.n = 0;
	g->lines = 0;
	for (int i = 0; i < g->atoms.n; i++) {
		Atom *a = &sp->atoms.v[g->atoms.v[i]];
		sorted_union(&g->users, &a->users);
		g->lines += a->lines;
	}
}

/* Drops the trailing declarations nobody uses from a run; keeps the run
 * when a rare declaration is left in it. */
static void close_run(Split *sp, Group *cur)
{
	while (cur->atoms.n && !sp->atoms.v[cur->atoms.v[cur->atoms.n - 1]].users.n)
		cur->atoms.n--;
	if (cur->atoms.n) {
		group_users(sp, cur);
		vec_push(&sp->groups, *cur);
	} else {
		vec_free(&cur->atoms);
		vec_free(&cur->users);
	}
	memset(cur, 0, sizeof(*cur));
}

static void make_groups(Split *sp)
{
	/* Runs of rare declarations, cut at sections and where the users
	 * change (a declaration whose users are unlike the run's so far).
	 * A declaration no file uses (only the header itself, or nothing)
	 * does not change the audience: it may sit in a run. */
	Group cur = {0};
	for (int i = 0; i <= sp->atoms.n; i++) {
		Atom *a = i < sp->atoms.n ? &sp->atoms.v[i] : NULL;
		bool free_atom = a && !a->users.n;
		bool end = !a || (!a->rare && !free_atom) || a->section;
		if (!end && cur.atoms.n && !free_atom) {
			group_users(sp, &cur);
			if (cur.users.n) {
				IntVec mine = {0};
				sorted_union(&mine, &a->users);
				end = jaccard(&cur.users, &mine) < sp->similar;
				vec_free(&mine);
			}
		}
		if (end && cur.atoms.n)
			close_run(sp, &cur);
		if (a && (a->rare || (free_atom && (cur.atoms.n || a->section))))
			vec_push(&cur.atoms, i);
	}
	/* neighbouring runs with similar users join */
	for (int i = 0; i + 1 < sp->groups.n;) {
		Group *g = &sp->groups.v[i], *h = &sp->groups.v[i + 1];
		int last = g->atoms.v[g->atoms.n - 1], first = h->atoms.v[0];
		bool adjacent = true;
		for (int k = last + 1; k < first; k++)
			adjacent = false; /* a core declaration stands between */
		if (adjacent && jaccard(&g->users, &h->users) >= sp->similar) {
			for (int k = 0; k < h->atoms.n; k++)
				vec_push(&g->atoms, h->atoms.v[k]);
			group_users(sp, g);
			vec_free(&h->atoms);
			vec_free(&h->users);
			memmove(h, h + 1, (size_t)(sp->groups.n - i - 2) * sizeof(*h));
			sp->groups.n--;
			continue;
		}
		i++;
	}
	for (int gi = 0; gi < sp->groups.n; gi++)
		for (int k = 0; k < sp->groups.v[gi].atoms.n; k++)
			sp->atoms.v[sp->groups.v[gi].atoms.v[k]].group = gi;
}

/* ---------------------------------------------------------------- groups by definer */

/* The header's atom that declares (not defines) the name, or -1. */
static int declared_atom(const Split *sp, const char *name, size_t n)
{
	int id = intern_find(sp->names, name, n);
	if (id < 0 || id >= sp->atom_of.n || sp->atom_of.v[id] < 0)
		return -1;
	for (uint32_t k = 0; k < sp->sy->nprovides; k++) {
		const SymEntry *e = &sym_provides(sp->sy)[k];
		if ((e->kind == SK_FUNC_DECL || e->kind == SK_VAR_DECL) && e->name_len == n &&
		    !memcmp(sym_name(sp->sy, e), name, n))
			return sp->atom_of.v[id];
	}
	return -1;
}

/* Each prototype's and extern variable's definer: the .c file of the tree
 * that defines it (not static); an atom's is the one defining most of its
 * names, the file defining more of the header's names winning a tie
 * (a fallback definition in a compat file loses to the real one). */
static void find_definers(Split *sp)
{
	Session *s = sp->s;
	typedef struct {
		int atom, file;
	} Def;
	VEC(Def) defs = {0};
	int *per_file = xcalloc((size_t)s->ft.nfiles + 1, sizeof(int));
	for (int f = 0; f < s->ft.nfiles; f++) {
		bool is_c;
		if (!sp->reach_h[f] || !tree_source(s, f, &is_c) || !is_c)
			continue;
		const Symbols *sy = s->ft.files[f].syms;
		for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
			const SymEntry *p = &sym_provides(sy)[k];
			if (!(p->kind == SK_FUNC_DEF && !(p->flags & PF_STATIC)) && p->kind != SK_VAR_DEF)
				continue;
			int a = declared_atom(sp, sym_name(sy, p), p->name_len);
			if (a < 0)
				continue;
			Def d = {a, f};
			vec_push(&defs, d);
			per_file[f]++;
		}
	}
	for (int a = 0; a < sp->atoms.n; a++) {
		int best = -1, best_n = 0;
		for (int i = 0; i < defs.n; i++) {
			if (defs.v[i].atom != a)
				continue;
			int f = defs.v[i].file, n = 0;
			for (int j = 0; j < defs.n; j++)
				n += defs.v[j].atom == a && defs.v[j].file == f;
			if (n > best_n || (n == best_n && per_file[f] > per_file[best]) ||
			    (n == best_n && per_file[f] == per_file[best] &&
			     strcmp(session_path(s, f), session_path(s, best)) < 0)) {
				best = f;
				best_n = n;
			}
		}
		sp->atoms.v[a].definer = best;
	}
	free(per_file);
	vec_free(&defs);
}

/* For each atom, the other atoms of the header whose names its text
 * uses, each once. */
static IntVec *atom_uses_all(const Split *sp)
{
	IntVec *uses = xcalloc((size_t)sp->atoms.n + 1, sizeof(IntVec));
	for (int b = 0; b < sp->atoms.n; b++) {
		const Symbols *sy = sp->atoms.v[b].syms;
		for (uint32_t k = 0; sy && k < sy->nuses; k++) {
			const SymEntry *u = &sym_uses(sy)[k];
			int id = intern_find(sp->names, sym_name(sy, u), u->name_len);
			if (id < 0 || id >= sp->atom_of.n || sp->atom_of.v[id] < 0 || sp->atom_of.v[id] == b)
				continue;
			int a = sp->atom_of.v[id];
			bool seen = false;
			for (int i = 0; i < uses[b].n && !seen; i++)
				seen = uses[b].v[i] == a;
			if (!seen)
				vec_push(&uses[b], a);
		}
	}
	return uses;
}

/* One group per implementing file, its prototypes and extern variables
 * first; then each type, macro and inline function goes with the group
 * whose declarations use it or that it uses most (the struct a file's
 * functions take, the macro wrapping one of them), whoever else uses it,
 * until nothing more joins.  A tie, or nothing pointing anywhere, leaves
 * the declaration in the header. */
static void make_definer_groups(Split *sp)
{
	find_definers(sp);
	for (int i = 0; i < sp->atoms.n; i++) {
		Atom *a = &sp->atoms.v[i];
		if (a->definer < 0)
			continue;
		int g = 0;
		while (g < sp->groups.n && sp->groups.v[g].definer != a->definer)
			g++;
		if (g == sp->groups.n) {
			Group ng = {0};
			ng.definer = a->definer;
			vec_push(&sp->groups, ng);
		}
		vec_push(&sp->groups.v[g].atoms, i);
		a->group = g;
	}
	/* who uses whom, and which group each implementing file heads */
	IntVec *uses = atom_uses_all(sp);
	IntVec *used_by = xcalloc((size_t)sp->atoms.n + 1, sizeof(IntVec));
	for (int b = 0; b < sp->atoms.n; b++)
		for (int i = 0; i < uses[b].n; i++)
			vec_push(&used_by[uses[b].v[i]], b);
	int *group_of_file = xmalloc(((size_t)sp->nfiles + 1) * sizeof(int));
	for (int f = 0; f <= sp->nfiles; f++)
		group_of_file[f] = -1;
	for (int g = 0; g < sp->groups.n; g++)
		if (sp->groups.v[g].definer >= 0 && sp->groups.v[g].definer < sp->nfiles)
			group_of_file[sp->groups.v[g].definer] = g;
	int *score = xcalloc((size_t)sp->groups.n + 1, sizeof(int));
	for (bool changed = true; changed;) {
		changed = false;
		for (int i = 0; i < sp->atoms.n; i++) {
			Atom *a = &sp->atoms.v[i];
			if (a->group >= 0 || !a->names.n)
				continue;
			memset(score, 0, (size_t)sp->groups.n * sizeof(int));
			for (int k = 0; k < used_by[i].n; k++) {
				int g = sp->atoms.v[used_by[i].v[k]].group;
				if (g >= 0)
					score[g] += 2;
			}
			for (int k = 0; k < uses[i].n; k++) {
				int g = sp->atoms.v[uses[i].v[k]].group;
				if (g >= 0)
					score[g] += 1;
			}
			/* the implementing file itself using it counts, a little */
			for (int u = 0; u < a->users.n; u++)
				if (a->users.v[u] < sp->nfiles && group_of_file[a->users.v[u]] >= 0)
					score[group_of_file[a->users.v[u]]]++;
			int best = -1;
			bool tie = false;
			for (int g = 0; g < sp->groups.n; g++) {
				if (!score[g])
					continue;
				if (best < 0 || score[g] > score[best]) {
					best = g;
					tie = false;
				} else if (score[g] == score[best]) {
					tie = true;
				}
			}
			if (best >= 0 && !tie) {
				vec_push(&sp->groups.v[best].atoms, i);
				a->group = best;
				changed = true;
			}
		}
	}
	free(score);
	free(group_of_file);
	for (int b = 0; b < sp->atoms.n; b++) {
		vec_free(&uses[b]);
		vec_free(&used_by[b]);
	}
	free(uses);
	free(used_by);
	for (int g = 0; g < sp->groups.n; g++) {
		Group *gr = &sp->groups.v[g];
		if (gr->atoms.n > 1)
			qsort(gr->atoms.v, (size_t)gr->atoms.n, sizeof(int), cmp_int);
		group_users(sp, gr);
	}
}

/* What stays must not use what leaves: a declaration used from another
 * group or the core stays too, until nothing moves. */
static void pin(Split *sp)
{
	for (bool changed = true; changed;) {
		changed = false;
		for (int user = 0; user < sp->atoms.n; user++) {
			const Symbols *sy = sp->atoms.v[user].syms;
			for (uint32_t k = 0; sy && k < sy->nuses; k++) {
				const SymEntry *u = &sym_uses(sy)[k];
				int id = intern_find(sp->names, sym_name(sy, u), u->name_len);
				if (id < 0 || id >= sp->atom_of.n || sp->atom_of.v[id] < 0)
					continue;
				Atom *used = &sp->atoms.v[sp->atom_of.v[id]];
				if (used->group < 0 || sp->atoms.v[user].group == used->group)
					continue;
				if ((u->flags & UF_TAG) && !(u->flags & UF_COMPLETE)) {
					/* a pointer: the header can declare the tag */
					Group *g = &sp->groups.v[used->group];
					char *t = xstrndup(sym_name(sy, u), u->name_len);
					if (!strvec_has(&g->forward, t))
						vec_push(&g->forward, t);
					else
						free(t);
					continue;
				}
				Group *g = &sp->groups.v[used->group];
				for (int i = 0; i < g->atoms.n; i++)
					if (&sp->atoms.v[g->atoms.v[i]] == used) {
						g->atoms.v[i] = g->atoms.v[--g->atoms.n];
						break;
					}
				used->group = -1;
				used->pinned = true;
				changed = true;
			}
		}
	}
	/* atoms in file order again; drop emptied groups */
	int k = 0;
	for (int i = 0; i < sp->groups.n; i++) {
		Group *g = &sp->groups.v[i];
		if (!g->atoms.n) {
			vec_free(&g->atoms);
			vec_free(&g->users);
			for (int j = 0; j < g->forward.n; j++)
				free(g->forward.v[j]);
			vec_free(&g->forward);
			continue;
		}
		if (g->atoms.n > 1)
			qsort(g->atoms.v, (size_t)g->atoms.n, sizeof(int), cmp_int);
		group_users(sp, g);
		sp->groups.v[k++] = *g;
	}
	sp->groups.n = k;
	for (int gi = 0; gi < sp->groups.n; gi++)
		for (int a = 0; a < sp->groups.v[gi].atoms.n; a++)
			sp->atoms.v[sp->groups.v[gi].atoms.v[a]].group = gi;
}

/* ---------------------------------------------------------------- includes that go along */

static long closure_lines(Session *s, int file, unsigned char *mark, bool set)
{
	TuGraph g = {0};
	Unit u = {file, session_ctx_for_file(s, file)};
	session_tu_csr(s, &u, &g);
	long lines = 0;
	for (int i = 0; i < g.nodes.n; i++) {
		int f = g.nodes.v[i];
		if (set) {
			mark[f] = 1;
		} else if (!mark[f]) {
			const Facts *fc = fs_facts(&s->ft, f);
			lines += fc ? fc->lines : 0;
		}
	}
	tu_free(&g);
	return lines;
}

/* An include of the header goes with a group when the group uses a name
 * it declares itself and nothing else of the header does. */
static void takes_along(Split *sp)
{
	Session *s = sp->s;
	TuGraph g = {0};
	Unit u = {sp->header, session_ctx_for_file(s, sp->header)};
	session_tu(s, &u, &g);
	const Facts *hf = fs_facts(&s->ft, sp->header);
	typedef struct {
		int file, line;
		char *spelling;
		int group; /* -2 unused by the header, -1 used by the core or by two groups */
	} Inc;
	VEC(Inc) incs = {0};
	for (int i = 0; i < g.edges.n && hf; i++) {
		TuEdge *e = &g.edges.v[i];
		if (e->from != 0 || e->dir < 0 || (uint32_t)e->dir >= hf->ndirs)
			continue;
		int line = (int)facts_dirs(hf)[e->dir].line;
		char *lt = edit_line(&sp->text, line);
		char *op = include_operand(lt);
		free(lt);
		if (!op)
			continue;
		Inc in = {g.nodes.v[e->to], line, op, -2};
		vec_push(&incs, in);
	}
	for (int i = 0; i < incs.n; i++) {
		Inc *in = &incs.v[i];
		fs_symbols_all(&s->ft, &in->file, 1, 1);
		const Symbols *ds = s->ft.files[in->file].syms;
		for (int a = 0; ds && a < sp->atoms.n; a++) {
			const Symbols *hs = sp->atoms.v[a].syms;
			for (uint32_t k = 0; hs && k < hs->nuses; k++) {
				const SymEntry *us = &sym_uses(hs)[k];
				if (!sym_provides_name(ds, sym_name(hs, us), us->name_len))
					continue;
				int grp = sp->atoms.v[a].group;
				if (in->group == -2)
					in->group = grp;
				else if (in->group != grp)
					in->group = -1;
			}
		}
	}
	/* the lines an include brings that the header's other includes do not */
	unsigned char *mark = xcalloc((size_t)s->ft.nfiles + 1, 1);
	for (int i = 0; i < incs.n; i++) {
		Inc *in = &incs.v[i];
		if (in->group < 0)
			continue;
		memset(mark, 0, (size_t)s->ft.nfiles + 1);
		for (int j = 0; j < incs.n; j++)
			if (j != i)
				closure_lines(s, incs.v[j].file, mark, true);
		mark[sp->header] = 1;
		Group *gr = &sp->groups.v[in->group];
		vec_push(&gr->takes, xstrdup(in->spelling));
		gr->extra_lines += closure_lines(s, in->file, mark, false);
	}
	free(mark);
	for (int i = 0; i < incs.n; i++)
		free(incs.v[i].spelling);
	vec_free(&incs);
	tu_free(&g);
}

/* ---------------------------------------------------------------- names */

static const char *const stopwords[] = {
	"the", "of", "to", "and", "or", "for", "in", "on", "with", "by", "this", "that", "is", "are", "be",
	"it", "its", "as", "at", "from", "all", "not", "no", "if", "we", "can", "get", "set", "an", "into",
	"used", "use", "when", "only", "must", "will", "may", "which", "has", "have", "void", "int",
	"long", "unsigned", "struct", "static", "inline", "extern", "return", "const", "define", NULL,
};

static void stem(char *w)
{
	size_t n = strlen(w);
	if (n > 5 && !strcmp(w + n - 3, "ing")) {
		w[n -= 3] = 0;
		if (n > 2 && w[n - 1] == w[n - 2])
			w[--n] = 0;
	}
	if (n > 4 && w[n - 1] == 's' && w[n - 2] != 's')
		w[--n] = 0;
}

/* Splits text into lowercase stemmed words of 3+ letters, not stopwords. */
static void words_of(const char *text, size_t len, StrVec *out)
{
	for (size_t i = 0; i < len;) {
		while (i < len && !isalpha((unsigned char)text[i]))
			i++;
		size_t j = i;
		while (j < len && isalpha((unsigned char)text[j]))
			j++;
		if (j - i >= 3 && j - i < 40) {
			char w[48];
			for (size_t k = i; k < j; k++)
				w[k - i] = (char)tolower((unsigned char)text[k]);
			w[j - i] = 0;
			stem(w);
			bool stop = false;
			for (int k = 0; stopwords[k] && !stop; k++)
				stop = !strcmp(w, stopwords[k]);
			if (!stop)
				vec_push(out, xstrdup(w));
		}
		i = j;
	}
}

static int count_word(const StrVec *v, const char *w)
{
	int n = 0;
	for (int i = 0; i < v->n; i++)
		n += !strcmp(v->v[i], w);
	return n;
}

static void free_words(StrVec *v)
{
	for (int i = 0; i < v->n; i++)
		free(v->v[i]);
	vec_free(v);
}

/* The group's most distinctive word: frequent in its names and comment,
 * rare in the rest of the header; the first word of its comment counts
 * extra (it usually names the topic). */
static void suggest_names(Split *sp)
{
	StrVec rest_all = {0};
	for (int i = 0; i < sp->atoms.n; i++)
		for (int k = 0; k < sp->atoms.v[i].names.n; k++)
			words_of(sp->atoms.v[i].names.v[k], strlen(sp->atoms.v[i].names.v[k]), &rest_all);
	const char *base = strrchr(sp->header_rel, '/');
	base = base ? base + 1 : sp->header_rel;
	char *stemname = xstrndup(base, strcspn(base, "."));
	char *dir = path_dirname(sp->header_rel);
	for (int gi = 0; gi < sp->groups.n; gi++) {
		Group *g = &sp->groups.v[gi];
		StrVec mine = {0}, comment = {0};
		for (int i = 0; i < g->atoms.n; i++) {
			Atom *a = &sp->atoms.v[g->atoms.v[i]];
			for (int k = 0; k < a->names.n; k++)
				words_of(a->names.v[k], strlen(a->names.v[k]), &mine);
			/* the comment lines above the declaration */
			for (int n = a->span.first; n <= a->span.last; n++) {
				char *l = edit_line(&sp->text, n);
				const char *p = l + strspn(l, " \t");
				bool c = !strncmp(p, "/*", 2) || *p == '*' || !strncmp(p, "//", 2);
				if (c)
					words_of(l, strlen(l), &comment);
				free(l);
				if (!c)
					break;
			}
		}
		const char *best = NULL;
		double best_score = 0;
		StrVec cand = {0};
		for (int i = 0; i < comment.n; i++)
			vec_push(&cand, comment.v[i]);
		for (int i = 0; i < mine.n; i++)
			vec_push(&cand, mine.v[i]);
		for (int i = 0; i < cand.n; i++) {
			const char *w = cand.v[i];
			if (!strcmp(w, stemname))
				continue;
			int in_group = count_word(&mine, w) + count_word(&comment, w);
			int elsewhere = count_word(&rest_all, w) - count_word(&mine, w);
			double score = (in_group + (comment.n && !strcmp(comment.v[0], w) ? 3 : 0)) /
				       (1.0 + 10.0 * (elsewhere > 0 ? elsewhere : 0));
			char *path = xasprintf("%s/%s/%s.h", dir, stemname, w);
			char *abs = path_join(sp->tree, path);
			struct stat st;
			if (stat(abs, &st) == 0)
				score -= 1000; /* taken */
			free(abs);
			free(path);
			if (!best || score > best_score) {
				best = w;
				best_score = score;
			}
		}
		if (best && best_score > -1000)
			g->name = xasprintf("%s/%s/%s.h", dir, stemname, best);
		else
			g->name = xasprintf("%s/%s/part%d.h", dir, stemname, gi + 1);
		vec_free(&cand);
		free_words(&mine);
		free_words(&comment);
	}
	free(dir);
	free(stemname);
	free_words(&rest_all);
}

/* --by=definer: the header is named after the implementing file.  Where
 * the header sits beside the sources (git's cache.h and object-name.c)
 * it is that file with .h; where headers have a directory of their own
 * (include/linux/sched.h and kernel/fork.c) it goes below the header's
 * stem: include/linux/sched/fork.h.  A name two groups would share gets
 * the implementing file's directory in front. */
static void definer_names(Split *sp)
{
	char *hdir = path_dirname(sp->header_rel);
	const char *base = strrchr(sp->header_rel, '/');
	base = base ? base + 1 : sp->header_rel;
	char *stemname = xstrndup(base, strcspn(base, "."));
	for (int gi = 0; gi < sp->groups.n; gi++) {
		Group *g = &sp->groups.v[gi];
		const char *def = session_path(sp->s, g->definer);
		char *ddir = path_dirname(def);
		const char *dbase = strrchr(def, '/');
		dbase = dbase ? dbase + 1 : def;
		size_t stem_len = strcspn(dbase, ".");
		bool beside = !strcmp(hdir, ".") || !strcmp(hdir, ddir);
		char *name = beside ? xasprintf("%s%s%.*s.h", strcmp(ddir, ".") ? ddir : "", strcmp(ddir, ".") ? "/" : "",
						(int)stem_len, dbase)
				    : xasprintf("%s/%s/%.*s.h", hdir, stemname, (int)stem_len, dbase);
		for (int k = 0; k < gi; k++)
			if (!strcmp(sp->groups.v[k].name, name)) {
				const char *pdir = strrchr(ddir, '/');
				pdir = pdir ? pdir + 1 : ddir;
				free(name);
				name = xasprintf("%s/%s/%s-%.*s.h", hdir, stemname, pdir, (int)stem_len, dbase);
				break;
			}
		char *abs = path_join(sp->tree, name);
		struct stat st;
		g->exists = stat(abs, &st) == 0;
		free(abs);
		g->name = name;
		free(ddir);
	}
	free(stemname);
	free(hdir);
}

/* ---------------------------------------------------------------- output */

static char *spelled(const char *rel)
{
	if (!strncmp(rel, "include/", 8))
		return xasprintf("<%s>", rel + 8);
	return xasprintf("\"%s\"", rel);
}

/* Groups too small to be worth a header of their own stay in the core. */
static void drop_small(Split *sp, int min_lines)
{
	int k = 0;
	for (int i = 0; i < sp->groups.n; i++) {
		Group *g = &sp->groups.v[i];
		if (g->lines + g->extra_lines >= min_lines) {
			sp->groups.v[k++] = *g;
			continue;
		}
		for (int a = 0; a < g->atoms.n; a++)
			sp->atoms.v[g->atoms.v[a]].group = -1;
		vec_free(&g->atoms);
		vec_free(&g->users);
		free_words(&g->takes);
		free_words(&g->forward);
		free(g->name);
	}
	sp->groups.n = k;
	for (int gi = 0; gi < sp->groups.n; gi++)
		for (int a = 0; a < sp->groups.v[gi].atoms.n; a++)
			sp->atoms.v[sp->groups.v[gi].atoms.v[a]].group = gi;
}

/* The TUs that still see the group's lines: those reaching a user, and
 * where the declarations go into a header that exists, those reaching it. */
static void group_saving(Split *sp, Group *g)
{
	unsigned char *seen = xmalloc((size_t)sp->nfiles + 1);
	IntVec starts = {0};
	for (int i = 0; i < g->users.n; i++)
		vec_push(&starts, g->users.v[i]);
	if (g->exists) {
		char *abs = path_join(sp->tree, g->name);
		int f = fs_add(&sp->s->ft, fs_key(&sp->s->ft, abs), 0);
		if (f < sp->nfiles)
			vec_push(&starts, f);
		free(abs);
	}
	g->tus = starts.n ? reverse_reach(sp, starts.v, starts.n, seen) : 0;
	vec_free(&starts);
	free(seen);
}

static long saved_lines(const Split *sp, const Group *g)
{
	return (long)(sp->header_tus - g->tus) * (g->lines + g->extra_lines);
}

static void print_text(Split *sp)
{
	Session *s = sp->s;
	int core = 0, core_lines = 0, unused = 0;
	for (int i = 0; i < sp->atoms.n; i++)
		if (sp->atoms.v[i].group < 0) {
			core++;
			core_lines += sp->atoms.v[i].lines;
			unused += !sp->atoms.v[i].users.n;
		}
	printf("%s: %d lines, %d declarations, included by %d TUs\n", sp->header_rel, sp->text.nlines,
	       sp->atoms.n, sp->header_tus);
	for (int gi = 0; gi < sp->groups.n; gi++) {
		Group *g = &sp->groups.v[gi];
		char *sp_name = spelled(g->name);
		printf("\ngroup %d: %s%s\n", gi + 1, sp_name, g->exists ? " (exists: the declarations go at its end)" : "");
		if (sp->by_definer)
			printf("  implemented in: %s\n", session_path(s, g->definer));
		printf("  symbols:");
		for (int i = 0; i < g->atoms.n; i++) {
			Atom *a = &sp->atoms.v[g->atoms.v[i]];
			for (int k = 0; k < a->names.n; k++)
				printf(" %s", a->names.v[k]);
		}
		printf("\n  lines: %d (", g->lines);
		for (int i = 0; i < g->atoms.n; i++) {
			Atom *a = &sp->atoms.v[g->atoms.v[i]];
			printf("%s%d-%d", i ? ", " : "", a->span.first, a->span.last);
		}
		if (g->exists)
			printf(")\n  seen by: %d of %d TUs (%s's includers too), used by %d file%s:", g->tus,
			       sp->header_tus, g->name, g->users.n, g->users.n == 1 ? "" : "s");
		else
			printf(")\n  used by: %d of %d TUs, through %d file%s:", g->tus, sp->header_tus, g->users.n,
			       g->users.n == 1 ? "" : "s");
		for (int i = 0; i < g->users.n && i < 8; i++)
			printf(" %s", session_path(s, g->users.v[i]));
		if (g->users.n > 8)
			printf(" (+%d)", g->users.n - 8);
		printf("\n");
		if (g->takes.n) {
			printf("  takes along:");
			for (int i = 0; i < g->takes.n; i++)
				printf(" %s", g->takes.v[i]);
			printf(" (%ld more lines)\n", g->extra_lines);
		}
		if (g->forward.n) {
			printf("  %s then declares:", sp->header_rel);
			for (int i = 0; i < g->forward.n; i++)
				printf(" struct %s;", g->forward.v[i]);
			printf("\n");
		}
		printf("  saving: %ld lines leave each of %d TUs: %ld build lines\n", (long)g->lines + g->extra_lines,
		       sp->header_tus - g->tus, saved_lines(sp, g));
		free(sp_name);
	}
	printf("\ncore (stays): %d declarations, %d lines", core, core_lines);
	if (unused)
		printf(" (%d used by no file: see hdrslim dead)", unused);
	printf("\n");
}

static void print_json(Split *sp)
{
	Session *s = sp->s;
	StrBuf b = {0};
	sb_adds(&b, "{\"header\": ");
	json_string(&b, sp->header_rel);
	sb_addf(&b, ", \"by\": \"%s\"", sp->by_definer ? "definer" : "users");
	sb_addf(&b, ", \"lines\": %d, \"declarations\": %d, \"tus\": %d, \"groups\": [", sp->text.nlines,
		sp->atoms.n, sp->header_tus);
	for (int gi = 0; gi < sp->groups.n; gi++) {
		Group *g = &sp->groups.v[gi];
		sb_adds(&b, gi ? ", {\"name\": " : "{\"name\": ");
		json_string(&b, g->name);
		sb_adds(&b, ", \"symbols\": [");
		int k2 = 0;
		for (int i = 0; i < g->atoms.n; i++) {
			Atom *a = &sp->atoms.v[g->atoms.v[i]];
			for (int k = 0; k < a->names.n; k++) {
				sb_adds(&b, k2++ ? ", " : "");
				json_string(&b, a->names.v[k]);
			}
		}
		sb_addf(&b, "], \"lines\": %d, \"tus\": %d, \"users\": [", g->lines, g->tus);
		for (int i = 0; i < g->users.n; i++) {
			sb_adds(&b, i ? ", " : "");
			json_string(&b, session_path(s, g->users.v[i]));
		}
		sb_adds(&b, "], \"takes\": [");
		for (int i = 0; i < g->takes.n; i++) {
			sb_adds(&b, i ? ", " : "");
			json_string(&b, g->takes.v[i]);
		}
		sb_addf(&b, "], \"extra_lines\": %ld, \"saved_build_lines\": %ld, \"exists\": %s", g->extra_lines,
			saved_lines(sp, g), g->exists ? "true" : "false");
		if (sp->by_definer) {
			sb_adds(&b, ", \"definer\": ");
			json_string(&b, session_path(s, g->definer));
		}
		sb_adds(&b, "}");
	}
	sb_adds(&b, "]}\n");
	fwrite(b.buf, 1, b.len, stdout);
	free(b.buf);
}

static void write_plan(Split *sp, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		die("split: cannot write %s", path);
	fprintf(f, "# hdrslim split %s: run with hdrslim series --verify TREE %s\n", sp->header_rel, path);
	/* a header that exists already takes its declarations in one move */
	for (int gi = 0; gi < sp->groups.n; gi++) {
		Group *g = &sp->groups.v[gi];
		if (g->exists)
			fprintf(f, "move %s -> %s:", sp->header_rel, g->name);
		else
			fprintf(f, "split %s -> %s:", sp->header_rel, g->name);
		for (int i = 0; i < g->atoms.n; i++) {
			Atom *a = &sp->atoms.v[g->atoms.v[i]];
			for (int k = 0; k < a->names.n; k++)
				fprintf(f, " %s", a->names.v[k]);
		}
		fprintf(f, "\n");
	}
	for (int gi = 0; gi < sp->groups.n; gi++)
		if (!sp->groups.v[gi].exists)
			fprintf(f, "unbackinclude %s %s\n", sp->header_rel, sp->groups.v[gi].name);
	/* the includes only a group used leave with it */
	for (int gi = 0; gi < sp->groups.n; gi++)
		for (int i = 0; i < sp->groups.v[gi].takes.n; i++)
			fprintf(f, "drop %s %s\n", sp->header_rel, sp->groups.v[gi].takes.v[i]);
	if (fclose(f))
		die("split: cannot write %s", path);
}

/* --symbol NAME: its users, and the headers every user already reaches,
 * fewest TUs first: where the declaration would cost least. */
static void one_symbol(Split *sp, const char *name)
{
	Session *s = sp->s;
	int id = intern_find(sp->names, name, strlen(name));
	if (id < 0 || id >= sp->atom_of.n || sp->atom_of.v[id] < 0)
		die("split: %s declares no '%s'", sp->header_rel, name);
	Atom *a = &sp->atoms.v[sp->atom_of.v[id]];
	printf("%s: declared at %s:%d-%d, used by %d TUs through %d file%s\n", name, sp->header_rel, a->span.first,
	       a->span.last, a->tus, a->users.n, a->users.n == 1 ? "" : "s");
	for (int i = 0; i < a->users.n; i++)
		printf("  %s\n", session_path(s, a->users.v[i]));
	if (!a->users.n)
		return;
	/* headers in every user's closure */
	int *count = xcalloc((size_t)s->ft.nfiles + 1, sizeof(int));
	int limit = a->users.n < 2000 ? a->users.n : 2000;
	for (int i = 0; i < limit; i++) {
		TuGraph g = {0};
		Unit u = {a->users.v[i], session_ctx_for_file(s, a->users.v[i])};
		session_tu_csr(s, &u, &g);
		for (int k = 0; k < g.nodes.n; k++)
			count[g.nodes.v[k]]++;
		tu_free(&g);
	}
	typedef struct {
		int file, tus;
	} Home;
	VEC(Home) homes = {0};
	unsigned char *seen = xmalloc((size_t)sp->nfiles + 1);
	for (int f = 0; f < s->ft.nfiles; f++) {
		bool is_c;
		if (count[f] != limit || f == sp->header || !tree_source(s, f, &is_c) || is_c)
			continue;
		Home h = {f, reverse_reach(sp, &f, 1, seen)};
		vec_push(&homes, h);
	}
	free(seen);
	for (int i = 1; i < homes.n; i++)
		for (int j = i; j > 0 && homes.v[j].tus < homes.v[j - 1].tus; j--) {
			Home t = homes.v[j];
			homes.v[j] = homes.v[j - 1];
			homes.v[j - 1] = t;
		}
	printf("cheapest homes every user reaches (TUs that include them; %s: %d):\n", sp->header_rel,
	       sp->header_tus);
	if (!homes.n)
		printf("  none but %s: a new header for its %d TUs\n", sp->header_rel, a->tus);
	for (int i = 0; i < homes.n && i < 5; i++)
		printf("  %s: %d TUs\n", session_path(s, homes.v[i].file), homes.v[i].tus);
	vec_free(&homes);
	free(count);
}

static void split_free(Split *sp)
{
	for (int i = 0; i < sp->atoms.n; i++) {
		free_words(&sp->atoms.v[i].names);
		vec_free(&sp->atoms.v[i].users);
		free(sp->atoms.v[i].syms);
	}
	vec_free(&sp->atoms);
	for (int i = 0; i < sp->groups.n; i++) {
		Group *g = &sp->groups.v[i];
		vec_free(&g->atoms);
		vec_free(&g->users);
		free_words(&g->takes);
		free_words(&g->forward);
		free(g->name);
	}
	vec_free(&sp->groups);
	if (sp->names)
		interner_free(sp->names);
	vec_free(&sp->atom_of);
	include_edges_free(&sp->edges);
	free(sp->reach_h);
	edit_free(&sp->text);
}

static double number_opt(int *argc, char **argv, const char *name, double def)
{
	char *v = option_value(argc, argv, "split", name);
	if (!v)
		return def;
	char *end;
	double d = strtod(v, &end);
	if (*end || d < 0 || d > 1)
		die("split: %s needs a number between 0 and 1", name);
	free(v);
	return d;
}

int cmd_split(int argc, char **argv)
{
	Split sp = {0};
	sp.max_share = number_opt(&argc, argv, "--max-share", 0.25);
	sp.similar = number_opt(&argc, argv, "--similar", 0.5);
	char *plan = option_value(&argc, argv, "split", "--plan");
	char *symbol = option_value(&argc, argv, "split", "--symbol");
	char *by = option_value(&argc, argv, "split", "--by");
	if (by && strcmp(by, "users") && strcmp(by, "definer"))
		die("split: --by takes users or definer, not '%s'", by);
	sp.by_definer = by && !strcmp(by, "definer");
	free(by);
	char *min_text = option_value(&argc, argv, "split", "--min-lines");
	/* by definer, every implementing file gets its header, however small */
	int min_lines = sp.by_definer ? 1 : 8;
	if (min_text) {
		char *end;
		long v = strtol(min_text, &end, 10);
		if (*end || v < 0)
			die("split: --min-lines needs a number");
		min_lines = (int)v;
		free(min_text);
	}
	Options o;
	options_parse(&o, argc, argv, "split", "--json,--decl-macro");
	if (o.args.n != 2)
		die("split: usage: hdrslim split [OPTIONS] TREE HEADER");
	sp.tree = o.args.v[0];
	const char *h = o.args.v[1];
	char *rel;
	size_t hl = strlen(h);
	if (hl > 2 && h[0] == '<' && h[hl - 1] == '>')
		rel = xasprintf("include/%.*s", (int)(hl - 2), h + 1);
	else
		rel = xstrdup(h);
	sp.header_rel = rel;
	char *tree_abs = path_absolute(sp.tree);
	char *abs = path_join(tree_abs, rel);
	free(tree_abs);
	char *err = NULL;
	if (!edit_load(&sp.text, abs, false, &err))
		die("split: %s", err);
	Session s;
	IntVec files = {0};
	check_open_session(&s, &o, sp.tree, NULL, 0, &files);
	vec_free(&files);
	sp.s = &s;
	sp.header = fs_add(&s.ft, fs_key(&s.ft, abs), 0);
	fs_symbols_all(&s.ft, &sp.header, 1, 1);
	sp.sy = s.ft.files[sp.header].syms;
	if (!sp.sy)
		die("split: %s: cannot read its declarations", rel);
	build_reverse(&sp);
	sp.reach_h = xmalloc((size_t)sp.nfiles + 1);
	sp.header_tus = reverse_reach(&sp, &sp.header, 1, sp.reach_h);
	make_atoms(&sp);
	find_users(&sp);
	if (symbol) {
		one_symbol(&sp, symbol);
	} else {
		if (sp.by_definer)
			make_definer_groups(&sp);
		else
			make_groups(&sp);
		pin(&sp);
		takes_along(&sp);
		drop_small(&sp, min_lines);
		if (sp.by_definer)
			definer_names(&sp);
		else
			suggest_names(&sp);
		for (int gi = 0; gi < sp.groups.n; gi++)
			group_saving(&sp, &sp.groups.v[gi]);
		if (o.json)
			print_json(&sp);
		else
			print_text(&sp);
		if (plan)
			write_plan(&sp, plan);
	}
	split_free(&sp);
	session_close(&s);
	free(abs);
	free(rel);
	free(plan);
	free(symbol);
	options_free(&o);
	return session_status();
}
