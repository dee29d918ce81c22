/*
 * cmd_series.c — `hdrslim series [OPTIONS] TREE PLAN`: a whole header
 * cleanup, written as a plan, carried out as a bisectable series of git
 * commits on a new branch.
 *
 * Plan lines (one step each; `#` starts a comment; FILE is a path
 * relative to TREE or an include spelling <x.h>, meaning include/x.h):
 *
 *   split HEADER -> NEW: SYMBOL...    move these declarations (with their
 *                                     comments and #if groups) into NEW,
 *                                     which HEADER then includes
 *   unbackinclude HEADER NEW          HEADER stops including NEW; every
 *                                     file using NEW's symbols that no
 *                                     longer reaches it includes it
 *   drop HEADER INCLUDED              remove an include check finds
 *                                     removable, with its fallout
 *   types DEP -> NEW: SYMBOL...       a split of type definitions into a
 *                                     header that needs nothing of DEP
 *   declare HEADER INCLUDED           replace an include by the forward
 *                                     declarations check finds enough
 *   replace HEADER INCLUDED           replace an include by the smaller
 *                                     headers check finds it is used for
 *   move SYMBOL HEADER -> OTHER       move one declaration to OTHER (made
 *                                     if missing); its users include
 *                                     OTHER; includes only it needed
 *                                     leave HEADER with it
 *   move HEADER -> OTHER: SYMBOL...   the same for several declarations,
 *                                     one commit (the declarations for
 *                                     one .c file's functions)
 *
 * The steps run in the order reviewers ask for, whatever the plan's
 * order: splits and types splits (nothing outside changes), then each
 * back-include's removal, then moves, then drops, declares and replaces;
 * within a kind, plan order.  Every step
 * is one commit (verified with --verify); the first step that fails stops
 * the series with the branch at the last good commit and a clean tree.
 * The whole plan is checked against the tree before anything is touched.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "apply.h"
#include "carve.h"
#include "check.h"
#include "commands.h"
#include "decl.h"
#include "lex.h"
#include "progress.h"
#include "steps.h"

enum StepKind { ST_SPLIT, ST_UNBACK, ST_MOVE, ST_DROP, ST_TYPES, ST_DECLARE, ST_REPLACE };
static const char *const step_names[] = {"split", "unbackinclude", "move", "drop", "types", "declare", "replace"};

/* Reviewers' order: a types split is a split; declaring and replacing an
 * include are removals of it. */
static int step_rank(int kind)
{
	switch (kind) {
	case ST_TYPES: return ST_SPLIT;
	case ST_DECLARE:
	case ST_REPLACE: return ST_DROP;
	default: return kind;
	}
}

typedef struct {
	int kind, lineno;
	char *text;      /* the plan line, for messages */
	char *header;    /* path relative to the tree */
	char *other;     /* split: NEW; unbackinclude: NEW; move: OTHER */
	char *include;   /* drop: the include as spelled, <x.h> or "x.h" */
	StrVec syms;
	bool listed;     /* move HEADER -> OTHER: SYMBOL... */
} Step;

typedef struct {
	const char *plan;
	char *tree;      /* absolute */
	VEC(Step) steps;
} Plan;

static _Noreturn void plan_error(const Plan *p, int line, const char *fmt, const char *arg)
{
	fflush(stdout);
	fprintf(stderr, "%s:%d: error: ", p->plan, line);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(EXIT_FATAL);
}

/* A FILE operand: <x.h> is include/x.h, "x.h" and plain paths are
 * relative to the tree. */
static char *operand_path(const char *w)
{
	size_t n = strlen(w);
	if (n > 2 && w[0] == '<' && w[n - 1] == '>') {
		char *inner = xstrndup(w + 1, n - 2);
		char *p = xasprintf("include/%s", inner);
		free(inner);
		return p;
	}
	if (n > 2 && w[0] == '"' && w[n - 1] == '"')
		return xstrndup(w + 1, n - 2);
	char *p = xstrdup(w);
	path_normalize(p);
	return p;
}

static bool exists_in(const char *tree, const char *rel)
{
	char *abs = path_join(tree, rel);
	struct stat st;
	bool ok = stat(abs, &st) == 0 && S_ISREG(st.st_mode);
	free(abs);
	return ok;
}

/* Splits a line into words; ':' and ',' also separate (and ':' ends the
 * word before it); "->" is a word of its own. */
static void words(char *line, StrVec *out)
{
	char *p = line;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p)
			break;
		char *w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != ',' && *p != ':')
			p++;
		if (p > w)
			vec_push(out, xstrndup(w, (size_t)(p - w)));
		if (*p == ':') {
			vec_push(out, xstrdup(":"));
			p++;
		}
	}
}

static void plan_read(Plan *p)
{
	FILE *f = fopen(p->plan, "r");
	if (!f)
		die("series: cannot open plan %s", p->plan);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (memchr(line, 0, (size_t)len))
			plan_error(p, lineno, "%sNUL byte in the plan", "");
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		line[strcspn(line, "\r\n")] = 0;
		StrVec w = {0};
		words(line, &w);
		if (!w.n) {
			vec_free(&w);
			continue;
		}
		Step st = {0};
		st.lineno = lineno;
		st.text = xstrdup(line);
		const char *k = w.v[0];
		if (!strcmp(k, "split") || !strcmp(k, "types")) {
			/* split HEADER -> NEW : SYM... */
			if (w.n < 6 || strcmp(w.v[2], "->") || strcmp(w.v[4], ":"))
				plan_error(p, lineno, "usage: %s HEADER -> NEW: SYMBOL...", k);
			st.kind = k[0] == 's' ? ST_SPLIT : ST_TYPES;
			st.header = operand_path(w.v[1]);
			st.other = operand_path(w.v[3]);
			for (int i = 5; i < w.n; i++)
				vec_push(&st.syms, xstrdup(w.v[i]));
		} else if (!strcmp(k, "unbackinclude")) {
			if (w.n != 3)
				plan_error(p, lineno, "%susage: unbackinclude HEADER NEW", "");
			st.kind = ST_UNBACK;
			st.header = operand_path(w.v[1]);
			st.other = operand_path(w.v[2]);
		} else if (!strcmp(k, "drop") || !strcmp(k, "declare") || !strcmp(k, "replace")) {
			/* declare may list the tags it expects: declare H <x.h>: struct S */
			bool listed = w.n > 3 && !strcmp(k, "declare") && !strcmp(w.v[3], ":");
			if (w.n != 3 && !listed)
				plan_error(p, lineno, "usage: %s HEADER INCLUDED", k);
			st.kind = !strcmp(k, "drop") ? ST_DROP : !strcmp(k, "declare") ? ST_DECLARE : ST_REPLACE;
			for (int i = 4; listed && i < w.n; i++)
				if (strcmp(w.v[i], "struct") && strcmp(w.v[i], "union") && strcmp(w.v[i], "enum"))
					vec_push(&st.syms, xstrdup(w.v[i]));
			st.header = operand_path(w.v[1]);
			const char *inc = w.v[2];
			if (inc[0] == '<' || inc[0] == '"')
				st.include = xstrdup(inc);
			else
				st.include = display_name(inc);
			if (st.include[0] != '<' && st.include[0] != '"') {
				char *q = xasprintf("\"%s\"", st.include);
				free(st.include);
				st.include = q;
			}
		} else if (!strcmp(k, "move")) {
			/* move SYMBOL HEADER -> OTHER, or move HEADER -> OTHER: SYMBOL... */
			bool listed = w.n >= 6 && !strcmp(w.v[2], "->") && !strcmp(w.v[4], ":");
			if (!listed && (w.n != 5 || strcmp(w.v[3], "->")))
				plan_error(p, lineno, "%susage: move SYMBOL HEADER -> OTHER, or move HEADER -> OTHER: SYMBOL...",
					   "");
			st.kind = ST_MOVE;
			st.listed = listed;
			if (listed) {
				for (int i = 5; i < w.n; i++)
					vec_push(&st.syms, xstrdup(w.v[i]));
				st.header = operand_path(w.v[1]);
				st.other = operand_path(w.v[3]);
			} else {
				vec_push(&st.syms, xstrdup(w.v[1]));
				st.header = operand_path(w.v[2]);
				st.other = operand_path(w.v[4]);
			}
		} else {
			plan_error(p, lineno, "unknown step '%s' (split, types, unbackinclude, move, drop, declare, replace)", k);
		}
		for (int i = 0; i < w.n; i++)
			free(w.v[i]);
		vec_free(&w);
		vec_push(&p->steps, st);
	}
	free(line);
	fclose(f);
	if (!p->steps.n)
		die("series: %s has no steps", p->plan);
}

static void plan_free(Plan *p)
{
	for (int i = 0; i < p->steps.n; i++) {
		Step *st = &p->steps.v[i];
		free(st->text);
		free(st->header);
		free(st->other);
		free(st->include);
		for (int k = 0; k < st->syms.n; k++)
			free(st->syms.v[k]);
		vec_free(&st->syms);
	}
	vec_free(&p->steps);
	free(p->tree);
}

/* Reviewers' order: splits, back-include removals, then moves and drops;
 * plan order within a kind (a stable sort by kind). */
static void plan_order(Plan *p)
{
	for (int i = 1; i < p->steps.n; i++) {
		Step x = p->steps.v[i];
		int j = i - 1;
		while (j >= 0 && step_rank(p->steps.v[j].kind) > step_rank(x.kind)) {
			p->steps.v[j + 1] = p->steps.v[j];
			j--;
		}
		p->steps.v[j + 1] = x;
	}
}

/* ---------------------------------------------------------------- session helpers */

static int file_id(Session *s, const char *tree, const char *rel)
{
	char *abs = path_join(tree, rel);
	int key = fs_key(&s->ft, abs);
	free(abs);
	return fs_add(&s->ft, key, 0);
}

static const Symbols *symbols_of(Session *s, int file)
{
	fs_symbols_all(&s->ft, &file, 1, 1);
	return s->ft.files[file].syms;
}

static bool provides(const Symbols *sy, const char *name, int *kind_out)
{
	if (!sy)
		return false;
	size_t n = strlen(name);
	for (uint32_t k = 0; k < sy->nprovides; k++) {
		const SymEntry *e = &sym_provides(sy)[k];
		if (e->kind != SK_SEED && e->name_len == n && !memcmp(sym_name(sy, e), name, n)) {
			if (kind_out)
				*kind_out = e->kind;
			return true;
		}
	}
	return false;
}

/* The line of `#include SPELLING` in e, or 0. */
static int include_line(const EditFile *e, const char *spelling)
{
	for (int n = 1; n <= e->nlines; n++) {
		char *line = edit_line(e, n);
		char *op = include_operand(line);
		bool hit = op && !strcmp(op, spelling);
		free(op);
		free(line);
		if (hit)
			return n;
	}
	return 0;
}

/* How other files include the file at rel: <x.h> under include/ (or an
 * arch include dir), else "path" relative to the includer's directory. */
static char *spelling_for(const char *rel, const char *from_rel)
{
	char *d = display_name(rel);
	if (d[0] == '<')
		return d;
	free(d);
	char *dir = path_dirname(from_rel);
	size_t n = strlen(dir);
	char *sp;
	if (!strcmp(dir, "."))
		sp = xasprintf("\"%s\"", rel);
	else if (!strncmp(rel, dir, n) && rel[n] == '/')
		sp = xasprintf("\"%s\"", rel + n + 1);
	else
		sp = xasprintf("\"%s\"", rel); /* relies on -I TREE; verify tells */
	free(dir);
	return sp;
}

/* ---------------------------------------------------------------- what moved text needs */

typedef struct {
	StrVec includes;   /* spellings, in the header's order */
	StrVec declare;    /* "struct task_struct;" */
	bool needs_header; /* it uses what stays in the header */
} Needs;

static void needs_free(Needs *n)
{
	for (int i = 0; i < n->includes.n; i++)
		free(n->includes.v[i]);
	for (int i = 0; i < n->declare.n; i++)
		free(n->declare.v[i]);
	vec_free(&n->includes);
	vec_free(&n->declare);
}

/* "struct", "union" or "enum": the keyword written before NAME in text. */
static const char *tag_keyword(const char *text, const char *name)
{
	static const char *const kws[] = {"struct", "union", "enum"};
	size_t n = strlen(name);
	for (const char *p = text; (p = strstr(p, name)); p += n) {
		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		if (isalnum((unsigned char)p[n]) || p[n] == '_')
			continue;
		const char *q = p;
		while (q > text && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n'))
			q--;
		for (int k = 0; k < 3; k++) {
			size_t kl = strlen(kws[k]);
			if ((size_t)(q - text) >= kl && !strncmp(q - kl, kws[k], kl))
				return kws[k];
		}
	}
	return "struct";
}

/* What the moved text uses that it does not declare itself, and where it
 * gets it: a forward declaration for a tag used only through pointers,
 * else the header's own direct include that brings the name in. */
static void moved_needs(Session *s, int header, const EditFile *eh, const SpanVec *spans,
			const char *text, Needs *out)
{
	LexScratch ls = {0};
	DeclScratch *ds = decl_scratch_new();
	Facts *f = lex_file(text, strlen(text), &ls);
	Symbols *mine = decl_file(text, strlen(text), f, ds);
	const Symbols *hs = symbols_of(s, header);
	/* the header's includes outside the moved text, in order */
	TuGraph g = {0};
	Unit u = {header, session_ctx_for_file(s, header)};
	session_tu(s, &u, &g);
	const Facts *hf = fs_facts(&s->ft, header);
	VEC(struct Inc { int file; char *spelling; IntVec closure; bool done; }) incs = {0};
	for (int i = 0; i < g.edges.n; i++) {
		TuEdge *e = &g.edges.v[i];
		if (e->from != 0 || e->dir < 0 || !hf || (uint32_t)e->dir >= hf->ndirs)
			continue;
		int line = (int)facts_dirs(hf)[e->dir].line;
		if (span_has(spans, line))
			continue;
		char *lt = edit_line(eh, line);
		char *op = include_operand(lt);
		free(lt);
		if (!op)
			continue;
		vec_grow(&incs, incs.n + 1);
		struct Inc *in = &incs.v[incs.n++];
		memset(in, 0, sizeof(*in));
		in->file = g.nodes.v[e->to];
		in->spelling = op;
	}
	for (uint32_t k = 0; k < mine->nuses; k++) {
		const SymEntry *use = &sym_uses(mine)[k];
		char *name = xstrndup(sym_name(mine, use), use->name_len);
		bool is_tag = use->flags & UF_TAG;
		bool complete = false;
		if (provides(mine, name, NULL)) {
			free(name);
			continue;
		}
		/* every use of a tag must be by pointer for a forward declaration */
		for (uint32_t j = 0; is_tag && j < mine->nuses; j++) {
			const SymEntry *o = &sym_uses(mine)[j];
			if ((o->flags & UF_TAG) && o->name_len == use->name_len &&
			    !memcmp(sym_name(mine, o), name, use->name_len) && (o->flags & UF_COMPLETE))
				complete = true;
		}
		int kind = -1;
		bool in_header = provides(hs, name, &kind);
		if (is_tag && !complete) {
			char *d = xasprintf("%s %s;", tag_keyword(text, name), name);
			if (!strvec_has(&out->declare, d))
				vec_push(&out->declare, d);
			else
				free(d);
			free(name);
			continue;
		}
		if (in_header) {
			out->needs_header = true;
			free(name);
			continue;
		}
		int best = -1;
		bool direct = false;
		for (int i = 0; i < incs.n; i++) {
			struct Inc *in = &incs.v[i];
			if (!in->done) {
				TuGraph cg = {0};
				Unit cu = {in->file, session_ctx_for_file(s, in->file)};
				session_tu_csr(s, &cu, &cg);
				for (int n = 0; n < cg.nodes.n; n++)
					vec_push(&in->closure, cg.nodes.v[n]);
				tu_free(&cg);
				fs_symbols_all(&s->ft, in->closure.v, in->closure.n, s->opt->jobs);
				in->done = true;
			}
			/* the include that is the name's home, else the one with the
			 * smallest closure that brings it */
			if (direct)
				continue; /* the closures are still wanted, for the home */
			if (provides(s->ft.files[in->file].syms, name, NULL)) {
				best = i;
				direct = true;
				continue;
			}
			bool found = false;
			for (int n = 0; n < in->closure.n && !found; n++)
				found = provides(s->ft.files[in->closure.v[n]].syms, name, NULL);
			if (found && (best < 0 || in->closure.n < incs.v[best].closure.n))
				best = i;
		}
		/* the file in the tree that defines it, included directly (the
		 * path first in order when several do): the new text then needs
		 * no more than that, whatever else the header's include brings */
		const char *home = NULL;
		for (int i = 0; i < incs.n; i++)
			for (int n = 0; n < incs.v[i].closure.n; n++) {
				int file = incs.v[i].closure.v[n];
				const char *rel = session_path(s, file);
				int k = -1;
				if (file != header && rel[0] != '/' && provides(s->ft.files[file].syms, name, &k) &&
				    k != SK_TAG_DECL && (!home || strcmp(rel, home) < 0))
					home = rel;
			}
		char *sp = home ? spelling_for(home, session_path(s, header))
				: best >= 0 ? xstrdup(incs.v[best].spelling) : NULL;
		if (sp && !strvec_has(&out->includes, sp))
			vec_push(&out->includes, sp);
		else
			free(sp);
		free(name);
	}
	/* keep the header's order of includes; homes it does not include
	 * itself come after them */
	StrVec ordered = {0};
	for (int i = 0; i < incs.n; i++)
		if (strvec_has(&out->includes, incs.v[i].spelling) && !strvec_has(&ordered, incs.v[i].spelling))
			vec_push(&ordered, xstrdup(incs.v[i].spelling));
	for (int i = 0; i < out->includes.n; i++)
		if (!strvec_has(&ordered, out->includes.v[i]))
			vec_push(&ordered, xstrdup(out->includes.v[i]));
	for (int i = 0; i < out->includes.n; i++)
		free(out->includes.v[i]);
	vec_free(&out->includes);
	out->includes = ordered;
	for (int i = 0; i < incs.n; i++) {
		free(incs.v[i].spelling);
		vec_free(&incs.v[i].closure);
	}
	vec_free(&incs);
	tu_free(&g);
	free(mine);
	free(f);
	decl_scratch_free(ds);
	lex_scratch_free(&ls);
}

/* ---------------------------------------------------------------- text surgery */

/* The text of the spans, a blank line between disjoint ones. */
static void spans_text(const EditFile *e, const SpanVec *spans, StrBuf *out)
{
	const char *eol = e->crlf ? "\r\n" : "\n";
	for (int i = 0; i < spans->n; i++) {
		if (i)
			sb_adds(out, eol);
		for (int n = spans->v[i].first; n <= spans->v[i].last; n++) {
			char *l = edit_line(e, n);
			sb_adds(out, l);
			sb_adds(out, eol);
			free(l);
		}
	}
}

static bool blank_line(const EditFile *e, int n)
{
	if (n < 1 || n > e->nlines)
		return true;
	char *l = edit_line(e, n);
	bool b = !l[strspn(l, " \t\r")];
	free(l);
	return b;
}

/* Deletes the spans from e; a blank line that would double up goes too.
 * With `replacement`, that line takes the first span's place. */
static void cut_spans(EditFile *e, const SpanVec *spans, const char *replacement)
{
	for (int i = 0; i < spans->n; i++) {
		const Span *sp = &spans->v[i];
		for (int n = sp->first; n <= sp->last; n++)
			edit_delete(e, n);
		if (i == 0 && replacement)
			edit_insert(e, sp->first, replacement);
		else if (blank_line(e, sp->first - 1) && blank_line(e, sp->last + 1) && sp->last < e->nlines &&
			 !span_has(spans, sp->last + 1))
			edit_delete(e, sp->last + 1);
	}
}

static void new_header_text(const char *rel, const char *eol, const Needs *nd, const char *header_spelling,
			    const char *moved, StrBuf *out)
{
	char *guard = guard_name_for(rel);
	sb_addf(out, "#ifndef %s%s#define %s%s%s", guard, eol, guard, eol, eol);
	/* Including the old header brings all the rest along. */
	if (nd->needs_header)
		sb_addf(out, "#include %s%s%s", header_spelling, eol, eol);
	for (int i = 0; i < nd->includes.n && !nd->needs_header; i++)
		sb_addf(out, "#include %s%s", nd->includes.v[i], eol);
	if (nd->includes.n && !nd->needs_header)
		sb_adds(out, eol);
	for (int i = 0; i < nd->declare.n && !nd->needs_header; i++)
		sb_addf(out, "%s%s", nd->declare.v[i], eol);
	if (nd->declare.n && !nd->needs_header)
		sb_adds(out, eol);
	sb_adds(out, moved);
	sb_addf(out, "%s#endif /* %s */%s", eol, guard, eol);
	free(guard);
}

/* The line of the header's closing guard #endif (the last #endif). */
static int last_endif(const EditFile *e)
{
	for (int n = e->nlines; n >= 1; n--) {
		char *l = edit_line(e, n);
		const char *p = l + strspn(l, " \t");
		bool hit = *p == '#' && !strncmp(p + 1 + strspn(p + 1, " \t"), "endif", 5);
		free(l);
		if (hit)
			return n;
	}
	return 0;
}

/* ---------------------------------------------------------------- users */

/* Files of the tree (other than `skip`) that use one of `names` without
 * declaring it themselves and whose closure lacks `target`. */
static void users_missing(Session *s, const StrVec *names, int target, int skip, IntVec *out)
{
	IntVec all = {0};
	for (int i = 0; i < s->ft.nfiles; i++)
		if (fs_in_file_set(&s->ft, i))
			vec_push(&all, i);
	fs_symbols_all(&s->ft, all.v, all.n, s->opt->jobs);
	const Symbols *tsy = symbols_of(s, target);
	for (int i = 0; i < all.n; i++) {
		int file = all.v[i];
		if (file == target || file == skip)
			continue;
		const Symbols *sy = s->ft.files[file].syms;
		if (!sy)
			continue;
		bool uses = false;
		for (uint32_t k = 0; k < sy->nuses && !uses; k++) {
			const SymEntry *u = &sym_uses(sy)[k];
			for (int n = 0; n < names->n && !uses; n++)
				uses = strlen(names->v[n]) == u->name_len &&
				       !memcmp(sym_name(sy, u), names->v[n], u->name_len) &&
				       !provides(sy, names->v[n], NULL);
		}
		/* a file that defines a function the target declares needs the
		 * prototype too (-Wmissing-prototypes, and the check that both agree) */
		for (int n = 0; n < names->n && !uses; n++) {
			int mine = -1, theirs = -1;
			uses = provides(sy, names->v[n], &mine) && mine == SK_FUNC_DEF && tsy &&
			       provides(tsy, names->v[n], &theirs) && theirs == SK_FUNC_DECL;
		}
		if (!uses)
			continue;
		TuGraph g = {0};
		Unit u = {file, session_ctx_for_file(s, file)};
		session_tu_csr(s, &u, &g);
		if (tu_find(&g, target) < 0)
			vec_push(out, file);
		tu_free(&g);
	}
	vec_free(&all);
}

/* Names the file declares (provides) on the lines of the spans. */
static void names_in_spans(const Symbols *sy, const SpanVec *spans, const char *guard, StrVec *out)
{
	for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
		const SymEntry *e = &sym_provides(sy)[k];
		/* a forward declaration is not an API, nor is the guard */
		if (e->kind == SK_SEED || e->kind == SK_TAG_DECL || !span_has(spans, (int)e->line))
			continue;
		if (e->kind == SK_MACRO && guard && e->name_len == strlen(guard) &&
		    !memcmp(sym_name(sy, e), guard, e->name_len))
			continue;
		char *n = xstrndup(sym_name(sy, e), e->name_len);
		if (strvec_has(out, n))
			free(n);
		else
			vec_push(out, n);
	}
}

/* ---------------------------------------------------------------- the steps */

typedef struct {
	Options *o;
	const char *tree;
	const char *prefix;
	Stepper *st;
} SeriesCtx;

static char *prefix_for(const SeriesCtx *cx, const char *header)
{
	if (cx->prefix)
		return xstrdup(cx->prefix);
	const char *b = strrchr(header, '/');
	b = b ? b + 1 : header;
	const char *dot = strrchr(b, '.');
	return xstrndup(b, dot ? (size_t)(dot - b) : strlen(b));
}

static void list_names(const StrVec *v, StrBuf *out)
{
	for (int i = 0; i < v->n; i++)
		sb_addf(out, "%s%s", i ? ", " : "", v->v[i]);
}

static void open_tree_session(SeriesCtx *cx, Session *s)
{
	IntVec files = {0};
	check_open_session(s, cx->o, cx->tree, NULL, 0, &files);
	vec_free(&files);
}

/* split and move share the cut: the spans of the step's names in the
 * header, the text they hold and what that text needs, read on a session
 * of its own (closed again: no session stays open while a step lands, as
 * verification forks).  Returns false with *why. */
static bool carve(SeriesCtx *cx, Change *c, const Step *stp, EditFile **eh, SpanVec *spans, StrBuf *moved,
		  Needs *nd, char **why)
{
	Session s;
	open_tree_session(cx, &s);
	int hfile = file_id(&s, cx->tree, stp->header);
	bool ok = false;
	const Symbols *sy = NULL;
	*eh = change_file(c, stp->header, false, why);
	if (*eh && !(sy = symbols_of(&s, hfile)))
		*why = xasprintf("%s: cannot read its symbols", stp->header);
	if (sy && carve_spans(*eh, sy, stp->syms.v, stp->syms.n, spans, why)) {
		spans_text(*eh, spans, moved);
		moved_needs(&s, hfile, *eh, spans, sb_str(moved), nd);
		ok = true;
	}
	session_close(&s);
	return ok;
}

static int step_split(SeriesCtx *cx, const Step *stp, StrBuf *msg, char **why)
{
	Change c;
	change_init(&c, cx->tree);
	EditFile *eh;
	SpanVec spans = {0};
	StrBuf moved = {0};
	Needs nd = {0};
	int r = 2;
	bool carved = carve(cx, &c, stp, &eh, &spans, &moved, &nd, why);
	if (carved && stp->kind == ST_TYPES && nd.needs_header) {
		/* a types header that includes its API header back is a cycle */
		*why = xasprintf("the definitions of %s use what stays in %s: not a types split", stp->syms.v[0],
				 stp->header);
		carved = false;
	}
	if (carved) {
		char *new_sp = spelling_for(stp->other, stp->header);
		char *hdr_sp = spelling_for(stp->header, stp->other);
		char *back = xasprintf("#include %s", new_sp);
		cut_spans(eh, &spans, back);
		EditFile *en = change_file(&c, stp->other, true, why);
		if (en) {
			StrBuf text = {0};
			/* When the moved text uses what stays, the new header includes
			 * the old one: included first, the old header's back-include
			 * is then guarded out and the text sees all it needs; included
			 * through the back-include, the guard makes that include empty
			 * and the text sees what came before it, as it always did. */
			new_header_text(stp->other, eh->crlf ? "\r\n" : "\n", &nd, hdr_sp, sb_str(&moved), &text);
			edit_set_content(en, text.buf, text.len);
			free(text.buf);
			char *pre = prefix_for(cx, stp->header);
			char *hd = display_name(stp->header), *nw = display_name(stp->other);
			StrBuf body = {0}, names = {0};
			list_names(&stp->syms, &names);
			if (stp->kind == ST_TYPES) {
				sb_addf(msg, "%s: Split the type definitions of %s into %s\n\n", pre, hd, nw);
				sb_addf(&body, "Move %s from %s into the new header %s, which needs nothing of %s. "
					"%s includes it where the definitions were, so nothing else changes; a header "
					"that needs only these types can include %s alone.",
					names.buf, hd, nw, hd, hd, nw);
			} else {
				int moved_lines = spans.n ? spans.v[spans.n - 1].last - spans.v[0].first + 1 : 0;
				sb_addf(msg, "%s: Split %s out of %s\n\n", pre, nw, hd);
				sb_addf(&body, "Move %s (%d line%s, with their comments and #if groups) from %s into the "
					"new header %s. %s includes it where the declarations were, so nothing else "
					"changes; the users will include %s directly in the following patches.",
					names.buf, moved.len ? moved_lines : 0, "s", hd, nw, hd, nw);
			}
			wrap_text(msg, body.buf);
			free(body.buf);
			free(names.buf);
			free(pre);
			free(hd);
			free(nw);
			r = steps_land(cx->st, &c, msg->buf, why);
		}
		free(back);
		free(new_sp);
		free(hdr_sp);
	}
	needs_free(&nd);
	free(moved.buf);
	vec_free(&spans);
	change_free(&c);
	return r;
}

/* Adds `#include target` to every file in users; names for the message. */
static bool add_to_users(Session *s, Change *c, const IntVec *users, const char *target_rel, StrBuf *list,
			 char **why)
{
	for (int i = 0; i < users->n; i++) {
		const char *rel = session_path(s, users->v[i]);
		if (rel[0] == '/')
			continue;
		char *sp = spelling_for(target_rel, rel);
		bool ok = change_add_include(c, rel, sp, why);
		free(sp);
		if (!ok)
			return false;
		sb_addf(list, "  %s\n", rel);
	}
	return true;
}

static int step_unback(SeriesCtx *cx, const Step *stp, StrBuf *msg, char **why)
{
	Change c;
	change_init(&c, cx->tree);
	int r = 2;
	EditFile *eh = change_file(&c, stp->header, false, why);
	char *sp = spelling_for(stp->other, stp->header);
	int line = eh ? include_line(eh, sp) : 0;
	if (eh && !line)
		*why = xasprintf("%s does not include %s", stp->header, sp);
	if (eh && line) {
		edit_delete(eh, line);
		if (blank_line(eh, line - 1) && blank_line(eh, line + 1) && line < eh->nlines)
			edit_delete(eh, line + 1);
		/* the users are found on the tree without the back-include */
		if (change_write(&c, why)) {
			change_rebase(&c);
			Session s;
			open_tree_session(cx, &s);
			int hfile = file_id(&s, cx->tree, stp->header);
			int nfile = file_id(&s, cx->tree, stp->other);
			StrVec names = {0};
			const Facts *nf = fs_facts(&s.ft, nfile);
			char *guard = nf && nf->guard >= 0 ? xstrndup(facts_strs(nf) + nf->guard_name_off, nf->guard_name_len)
							   : NULL;
			names_in_spans(symbols_of(&s, nfile), &(SpanVec){.v = &(Span){1, 1 << 30}, .n = 1}, guard, &names);
			free(guard);
			IntVec users = {0};
			users_missing(&s, &names, nfile, -1, &users);
			/* the header keeps using tags NEW defines through pointers:
			 * it declares them where the back-include was */
			const Symbols *hs = symbols_of(&s, hfile), *ns = symbols_of(&s, nfile);
			for (uint32_t k = 0; hs && ns && k < ns->nprovides; k++) {
				const SymEntry *p = &sym_provides(ns)[k];
				if (p->kind != SK_TAG_DEF)
					continue;
				char *tag = xstrndup(sym_name(ns, p), p->name_len);
				for (uint32_t j = 0; j < hs->nuses; j++) {
					const SymEntry *u = &sym_uses(hs)[j];
					if (!(u->flags & UF_TAG) || u->name_len != p->name_len ||
					    memcmp(sym_name(hs, u), tag, p->name_len))
						continue;
					if (!(u->flags & UF_COMPLETE) && !provides(hs, tag, NULL)) {
						char *d = xasprintf("struct %s;", tag);
						edit_insert(eh, line <= eh->nlines ? line : eh->nlines + 1, d);
						free(d);
					}
					break;
				}
				free(tag);
			}
			StrBuf list = {0};
			if (add_to_users(&s, &c, &users, stp->other, &list, why)) {
				char *pre = prefix_for(cx, stp->header);
				char *hd = display_name(stp->header), *nw = display_name(stp->other);
				sb_addf(msg, "%s: Remove %s from %s\n\n", pre, nw, hd);
				StrBuf body = {0};
				if (users.n == 1)
					sb_addf(&body, "%s no longer includes %s. The one file that uses its API and "
						"reached it only through %s includes it directly now.", hd, nw, hd);
				else
					sb_addf(&body, "%s no longer includes %s. The %d files that use its API and "
						"reached it only through %s include it directly now.", hd, nw, users.n, hd);
				wrap_text(msg, body.buf);
				if (users.n)
					sb_addf(msg, "\n%s", list.buf);
				free(body.buf);
				free(pre);
				free(hd);
				free(nw);
				session_close(&s);
				r = steps_land(cx->st, &c, msg->buf, why);
			} else {
				session_close(&s);
				change_undo(&c);
			}
			free(list.buf);
			vec_free(&users);
			for (int i = 0; i < names.n; i++)
				free(names.v[i]);
			vec_free(&names);
		}
	}
	free(sp);
	change_free(&c);
	return r;
}

/* After a move or a split without back-include: the header's includes that
 * check now finds unused go too, with their fallout. */
static bool drop_now_unused(SeriesCtx *cx, Change *c, const char *header, const StrVec *candidates, StrBuf *note,
			    char **why)
{
	Session s;
	IntVec files = {0};
	char *abs = path_join(cx->tree, header);
	check_open_session(&s, cx->o, cx->tree, &abs, 1, &files);
	Check *ck = check_new(&s, 1u << FK_UNUSED, false);
	FindingVec fv = {0};
	check_run(ck, files.v, files.n, &fv);
	bool ok = true;
	for (int i = 0; i < fv.n && ok; i++) {
		const Finding *f = &fv.v[i];
		char *inc = check_written(ck, f->file, f->dir);
		if (strvec_has(candidates, inc)) {
			ok = apply_finding(&s, ck, f, c, why);
			sb_addf(note, "%s%s", note->len ? ", " : "", inc);
		}
		free(inc);
	}
	findings_free(&fv);
	check_free(ck);
	vec_free(&files);
	free(abs);
	session_close(&s);
	return ok;
}

static int step_move(SeriesCtx *cx, const Step *stp, StrBuf *msg, char **why)
{
	Change c;
	change_init(&c, cx->tree);
	EditFile *eh;
	SpanVec spans = {0};
	StrBuf moved = {0};
	Needs nd = {0};
	int r = 2;
	bool ok = carve(cx, &c, stp, &eh, &spans, &moved, &nd, why);
	EditFile *eo = ok ? change_file(&c, stp->other, true, why) : NULL;
	if (eo) {
		char *hdr_sp = spelling_for(stp->header, stp->other);
		cut_spans(eh, &spans, NULL);
		if (eo->orig_exists && eo->nlines) {
			/* append before the other header's closing #endif */
			int at = last_endif(eo);
			if (!at)
				at = eo->nlines + 1;
			for (int i = 0; i < nd.includes.n; i++)
				change_add_include(&c, stp->other, nd.includes.v[i], why);
			if (nd.needs_header)
				change_add_include(&c, stp->other, hdr_sp, why);
			edit_insert(eo, at, "");
			for (const char *p = moved.buf; p && *p;) {
				const char *e = strchr(p, '\n');
				size_t n = e ? (size_t)(e - p) : strlen(p);
				if (n && p[n - 1] == '\r')
					n--;
				char *l = xstrndup(p, n);
				edit_insert(eo, at, l);
				free(l);
				p = e ? e + 1 : p + strlen(p);
			}
		} else {
			StrBuf text = {0};
			new_header_text(stp->other, eh->crlf ? "\r\n" : "\n", &nd, hdr_sp, sb_str(&moved), &text);
			edit_set_content(eo, text.buf, text.len);
			free(text.buf);
		}
		free(hdr_sp);
		ok = change_write(&c, why);
		if (ok) {
			change_rebase(&c);
			Session s2;
			open_tree_session(cx, &s2);
			int ofile = file_id(&s2, cx->tree, stp->other);
			IntVec users = {0};
			users_missing(&s2, &stp->syms, ofile, -1, &users);
			StrBuf list = {0}, dropped = {0};
			ok = add_to_users(&s2, &c, &users, stp->other, &list, why);
			session_close(&s2);
			if (ok) {
				/* includes only the moved text needed leave the header */
				ok = change_write(&c, why);
				if (ok) {
					change_rebase(&c);
					ok = drop_now_unused(cx, &c, stp->header, &nd.includes, &dropped, why);
				}
			}
			if (ok) {
				char *pre = prefix_for(cx, stp->header);
				char *hd = display_name(stp->header), *ot = display_name(stp->other);
				StrBuf body = {0};
				if (stp->listed) {
					/* OTHER named after the .c file that implements them */
					char *impl = xasprintf("%.*s.c", (int)(strlen(stp->other) - 2), stp->other);
					bool named = ends_with(stp->other, ".h") && exists_in(cx->tree, impl);
					if (named)
						sb_addf(msg, "%s: Move declarations for %s functions to %s\n\n", pre, impl, ot);
					else
						sb_addf(msg, "%s: Move %d declarations to %s\n\n", pre, stp->syms.n, ot);
					sb_addf(&body, "Move");
					for (int i = 0; i < stp->syms.n; i++)
						sb_addf(&body, "%s %s", i == 0 ? "" : i + 1 == stp->syms.n ? " and" : ",",
							stp->syms.v[i]);
					sb_addf(&body, " from %s to %s", hd, ot);
					if (named)
						sb_addf(&body, ", beside their definitions in %s", impl);
					if (users.n == 1)
						sb_addf(&body, "; the one file using them includes it now.");
					else if (users.n)
						sb_addf(&body, "; the %d files using them include it now.", users.n);
					else
						sb_addf(&body, "; no other file uses them.");
					free(impl);
				} else {
					sb_addf(msg, "%s: Move %s() to %s\n\n", pre, stp->syms.v[0], ot);
					if (users.n == 1)
						sb_addf(&body, "Only one file uses %s(): move it from %s to %s, which that "
							"file includes now.", stp->syms.v[0], hd, ot);
					else
						sb_addf(&body, "%d files use %s(): move it from %s to %s, which they "
							"include now.", users.n, stp->syms.v[0], hd, ot);
				}
				if (dropped.len)
					sb_addf(&body, " %s no longer needs %s, which goes with it.", hd, dropped.buf);
				wrap_text(msg, body.buf);
				if (users.n)
					sb_addf(msg, "\n%s", list.buf);
				free(body.buf);
				free(pre);
				free(hd);
				free(ot);
				r = steps_land(cx->st, &c, msg->buf, why);
			} else {
				change_undo(&c);
			}
			free(list.buf);
			free(dropped.buf);
			vec_free(&users);
		}
	}
	needs_free(&nd);
	free(moved.buf);
	vec_free(&spans);
	change_free(&c);
	return r;
}

static int step_drop(SeriesCtx *cx, const Step *stp, StrBuf *msg, char **why)
{
	Session s;
	IntVec files = {0};
	char *abs = path_join(cx->tree, stp->header);
	check_open_session(&s, cx->o, cx->tree, &abs, 1, &files);
	/* drop takes what check finds removable; declare and replace insist
	 * on their own kind of finding */
	unsigned kinds = stp->kind == ST_DECLARE ? 1u << FK_FORWARD
		       : stp->kind == ST_REPLACE ? 1u << FK_REPLACEABLE
						 : 1u << FK_UNUSED | 1u << FK_REPLACEABLE | 1u << FK_REDUNDANT;
	Check *ck = check_new(&s, kinds, false);
	FindingVec fv = {0};
	check_run(ck, files.v, files.n, &fv);
	const Finding *hit = NULL;
	for (int i = 0; i < fv.n && !hit; i++) {
		char *inc = fv.v[i].dir >= 0 ? check_written(ck, fv.v[i].file, fv.v[i].dir) : xstrdup("");
		if (!strcmp(inc, stp->include) && (kinds >> fv.v[i].kind & 1))
			hit = &fv.v[i];
		free(inc);
	}
	int r = 2;
	Change c;
	change_init(&c, cx->tree);
	if (!hit && stp->kind == ST_DECLARE)
		*why = xasprintf("%s uses more of %s than tags through pointers", stp->header, stp->include);
	else if (!hit && stp->kind == ST_REPLACE)
		*why = xasprintf("%s uses %s's own declarations (nothing to replace it by)", stp->header, stp->include);
	else if (!hit)
		*why = xasprintf("%s uses what %s brings in (check finds nothing to remove there)", stp->header,
				 stp->include);
	bool ready = hit && apply_finding(&s, ck, hit, &c, why);
	if (ready)
		finding_message(&s, ck, hit, cx->prefix, msg);
	findings_free(&fv);
	check_free(ck);
	vec_free(&files);
	free(abs);
	session_close(&s);
	if (ready)
		r = steps_land(cx->st, &c, msg->buf, why);
	change_free(&c);
	return r;
}

/* ---------------------------------------------------------------- checking the plan */

/* Everything the plan names must exist (or be made by an earlier step)
 * before anything is touched. */
static void plan_check(Plan *p, Options *o)
{
	Session s;
	session_open(&s, o, p->tree, true);
	StrVec made = {0}; /* files earlier splits create */
	StrVec taken = {0}; /* symbols already moved */
	for (int i = 0; i < p->steps.n; i++) {
		Step *st = &p->steps.v[i];
		bool header_made = strvec_has(&made, st->header);
		if (!header_made && !exists_in(p->tree, st->header))
			plan_error(p, st->lineno, "no such file: %s", st->header);
		if (st->kind == ST_SPLIT || st->kind == ST_TYPES) {
			if (exists_in(p->tree, st->other) || strvec_has(&made, st->other))
				plan_error(p, st->lineno, "%s already exists (split makes a new header)", st->other);
			vec_push(&made, st->other);
		}
		if (st->kind == ST_MOVE && !strcmp(st->header, st->other))
			plan_error(p, st->lineno, "%s: moving a declaration to where it is", st->other);
		if (st->kind == ST_UNBACK && !strvec_has(&made, st->other) && !exists_in(p->tree, st->other))
			plan_error(p, st->lineno, "no such file: %s (and no split makes it)", st->other);
		if (header_made)
			continue;
		int hfile = file_id(&s, p->tree, st->header);
		const Symbols *sy = symbols_of(&s, hfile);
		for (int k = 0; k < st->syms.n && st->kind != ST_DECLARE; k++) {
			if (!provides(sy, st->syms.v[k], NULL)) {
				char *m = xasprintf("%s declares no '%s'", st->header, st->syms.v[k]);
				plan_error(p, st->lineno, "%s", m);
			}
			char *key = xasprintf("%s:%s", st->header, st->syms.v[k]);
			if (strvec_has(&taken, key))
				plan_error(p, st->lineno, "'%s' is moved by an earlier step too", st->syms.v[k]);
			vec_push(&taken, key);
		}
		if (step_rank(st->kind) == ST_DROP || st->kind == ST_UNBACK) {
			char *abs = path_join(p->tree, st->header);
			EditFile e;
			char *err = NULL;
			if (!edit_load(&e, abs, false, &err))
				plan_error(p, st->lineno, "%s", err);
			char *sp = st->kind != ST_UNBACK ? xstrdup(st->include) : spelling_for(st->other, st->header);
			bool made_by_split = false;
			for (int k = 0; k < i && st->kind == ST_UNBACK; k++)
				if (p->steps.v[k].kind == ST_SPLIT && !strcmp(p->steps.v[k].other, st->other) &&
				    !strcmp(p->steps.v[k].header, st->header))
					made_by_split = true;
			if (!made_by_split && !include_line(&e, sp)) {
				char *m = xasprintf("%s has no #include %s", st->header, sp);
				plan_error(p, st->lineno, "%s", m);
			}
			free(sp);
			edit_free(&e);
			free(abs);
		}
	}
	for (int i = 0; i < made.n; i++)
		(void)made.v[i]; /* pointers into the steps */
	vec_free(&made);
	for (int i = 0; i < taken.n; i++)
		free(taken.v[i]);
	vec_free(&taken);
	session_close(&s);
}

int cmd_series(int argc, char **argv)
{
	StepOpts so;
	argc = steps_take_options(&so, argc, argv, "series",
				  "--dry-run,--allow-dirty,--verify,--memo,--cc-wrapper,--timeout,--prefix,--branch,"
				  "--format-patch");
	Options o;
	options_parse(&o, argc, argv, "series", "--decl-macro,--mapping,--build+");
	/* Edits must hold in every configuration: the analysis is union mode
	 * unless told otherwise; the compiler checks the configured build. */
	if (!o.mode)
		o.mode = 2;
	if (o.args.n != 2)
		die("series: usage: hdrslim series [OPTIONS] TREE PLAN");
	Plan p = {0};
	p.tree = path_absolute(o.args.v[0]);
	p.plan = o.args.v[1];
	struct stat st_;
	if (stat(p.tree, &st_) || !S_ISDIR(st_.st_mode))
		die("series: %s: not a directory", o.args.v[0]);
	plan_read(&p);
	plan_order(&p);
	plan_check(&p, &o);
	if (so.dry_run) {
		for (int i = 0; i < p.steps.n; i++)
			printf("%d. %s (plan line %d)\n", i + 1, p.steps.v[i].text, p.steps.v[i].lineno);
		plan_free(&p);
		steps_free_options(&so);
		options_free(&o);
		return EXIT_OK;
	}
	if (!so.branch) {
		const char *b = strrchr(p.plan, '/');
		b = b ? b + 1 : p.plan;
		const char *dot = strrchr(b, '.');
		so.branch = xasprintf("hdrslim/%.*s", (int)(dot && dot > b ? dot - b : (long)strlen(b)), b);
	}
	Stepper st;
	steps_begin(&st, "series", &o, p.tree, &so);
	SeriesCtx cx = {&o, p.tree, so.prefix, &st};
	int status = EXIT_OK;
	Progress *pr = progress_begin(NULL, "steps", p.steps.n);
	for (int i = 0; i < p.steps.n; i++) {
		if (steps_interrupted()) {
			progress_pause();
			fprintf(stderr, "series: interrupted before step %d; the branch %s is at the last commit and "
				"the tree is clean\n", i + 1, so.branch);
			progress_resume();
			status = 130;
			break;
		}
		const Step *stp = &p.steps.v[i];
		StrBuf msg = {0};
		char *why = NULL;
		int r;
		switch (stp->kind) {
		case ST_SPLIT:
		case ST_TYPES:
			r = step_split(&cx, stp, &msg, &why);
			break;
		case ST_UNBACK:
			r = step_unback(&cx, stp, &msg, &why);
			break;
		case ST_MOVE:
			r = step_move(&cx, stp, &msg, &why);
			break;
		default:
			r = step_drop(&cx, stp, &msg, &why);
			break;
		}
		const char *nl = msg.buf ? strchr(msg.buf, '\n') : NULL;
		progress_pause();
		if (r == 0) {
			printf("[%d/%d] %.*s\n", i + 1, p.steps.n, nl ? (int)(nl - msg.buf) : (int)msg.len,
			       msg.buf);
			if (st.verify_times && !st.o->quiet)
				printf("      verified: %s\n", st.verify_times);
			free(st.verify_times);
			st.verify_times = NULL;
		} else if (r == 3) {
			printf("[%d/%d] %s %s: nothing to change\n", i + 1, p.steps.n, step_names[stp->kind],
			       stp->header);
		} else {
			fflush(stdout);
			fprintf(stderr, "%s:%d: error: step %d (%s) failed%s: %s\n", p.plan, stp->lineno, i + 1,
				stp->text, r == 1 ? " verification" : "", why ? why : "?");
			fprintf(stderr, "series: stopped; the branch %s is at the last good commit and the tree is "
				"clean\n", so.branch);
			status = steps_interrupted() ? 130 : EXIT_FINDINGS;
			progress_resume();
			free(why);
			free(msg.buf);
			break;
		}
		fflush(stdout);
		progress_resume();
		progress_add(pr, 1);
		free(why);
		free(msg.buf);
	}
	progress_end(pr);
	fprintf(stderr, "series: %d commit%s on %s", st.commits, st.commits == 1 ? "" : "s", so.branch);
	if (so.verify)
		fprintf(stderr, ", %d TUs verified", st.verified_tus);
	fputc('\n', stderr);
	steps_end(&st);
	plan_free(&p);
	steps_free_options(&so);
	options_free(&o);
	return status;
}
