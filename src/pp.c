/*
 * pp.c — the exact walk.
 *
 * Conditional groups are followed through the `next` links the lexer
 * made: at an #if the walker evaluates branches in turn and jumps straight
 * to the first true one (or past #endif); reaching #elif/#else while
 * executing a branch means that branch is over, so it jumps to #endif.
 * No stack is needed and a false branch costs one jump.
 *
 * An #if that hdrslim cannot decide even with a configuration (only
 * compiler queries like __has_attribute() are left unknown) is taken as
 * false, which is GCC's answer for the attribute/builtin queries the
 * kernel makes about newer compilers.
 *
 * A header may legitimately include itself again (the kernel's
 * define_trace.h re-reads trace headers under TRACE_HEADER_MULTI_READ),
 * so re-entry is allowed as in GCC; nesting deeper than GCC's limit of
 * 200 is an include cycle, reported once per TU and not followed.
 */
#include "pp.h"
#include "macro.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200

struct Pp {
	Config *cfg;
	FileTable *ft;
	IncPath *ip;
	MacroTable mt;
	bool missing_ok;
	int chain;
	TuGraph *g;
	/* per file id, valid when == epoch */
	uint32_t *once, *cycle_told, *active; /* active: readings in progress */
	int cap;
	uint32_t epoch;
	/* __has_include context */
	int cur_file, cur_found_at;
	/* the TU's own #include being read (directive index), -1 none */
	int root_dir;
	/* pp_walk_without: the TU's own #include left out, -1 none */
	int skip_dir;
};

static int has_include_cb(void *ctx, const char *name, bool angled, bool next)
{
	Pp *pp = ctx;
	Resolved r = incpath_resolve(pp->ip, pp->chain, pp->cur_file, pp->cur_found_at, name, angled, next);
	return r.file >= 0;
}

Pp *pp_new(Config *cfg, IncPath *ip, Interner *names)
{
	Pp *pp = xcalloc(1, sizeof(*pp));
	pp->cfg = cfg;
	pp->ft = cfg->ft;
	pp->ip = ip;
	mt_init(&pp->mt, names, false);
	pp->mt.has_include = has_include_cb;
	pp->mt.has_include_ctx = pp;
	pp->skip_dir = -1;
	return pp;
}

void pp_free(Pp *pp)
{
	if (!pp)
		return;
	mt_free(&pp->mt);
	free(pp->once);
	free(pp->cycle_told);
	free(pp->active);
	free(pp);
}

void pp_set_missing_ok(Pp *pp, bool ok)
{
	pp->missing_ok = ok;
}

static void ensure_cap(Pp *pp)
{
	int need = pp->ft->nfiles;
	if (need <= pp->cap)
		return;
	int cap = pp->cap ? pp->cap : 1024;
	while (cap < need)
		cap *= 2;
	uint32_t **arrays[] = {&pp->once, &pp->cycle_told, &pp->active};
	for (int i = 0; i < 3; i++) {
		*arrays[i] = xrealloc(*arrays[i], (size_t)cap * sizeof(uint32_t));
		memset(*arrays[i] + pp->cap, 0, (size_t)(cap - pp->cap) * sizeof(uint32_t));
	}
	pp->cap = cap;
}

static const char *path_of(Pp *pp, int file)
{
	return file >= 0 ? fs_keystr(pp->ft, pp->ft->files[file].key) : "<command-line>";
}

/* Evaluates one branch directive; errors are reported and count as false. */
static bool branch_taken(Pp *pp, int file, const Facts *f, const Directive *d)
{
	const char *name = facts_name(f, d);
	switch (d->kind) {
	case D_ELSE:
		return true;
	case D_IFDEF:
	case D_ELIFDEF:
	case D_IFNDEF:
	case D_ELIFNDEF: {
		if (d->flags & DF_BADNAME) {
			diag(path_of(pp, file), d->line, "no macro name given in #%s directive",
			     d->kind == D_IFDEF || d->kind == D_ELIFDEF ? "ifdef" : "ifndef");
			return false;
		}
		bool def = mt_defined(&pp->mt, name, d->name_len) == TRI_TRUE;
		return d->kind == D_IFDEF || d->kind == D_ELIFDEF ? def : !def;
	}
	default: {
		const char *err = NULL;
		Tri v = mt_eval_if(&pp->mt, facts_text(f, d), d->text_len, &err);
		if (err) {
			diag(path_of(pp, file), d->line, "%s", err);
			return false;
		}
		return v == TRI_TRUE;
	}
	}
}

static void include_file(Pp *pp, int file, int found_at, int from_node, int dir, int depth);

static void do_include(Pp *pp, int file, int found_at, int node, const Facts *f, int i, int depth)
{
	const Directive *d = &facts_dirs(f)[i];
	const char *name = facts_name(f, d);
	bool angled = (d->flags & DF_ANGLED) != 0;
	char *computed = NULL;
	if (d->flags & DF_COMPUTED) {
		computed = mt_expand_include(&pp->mt, facts_text(f, d), d->text_len, &angled);
		if (!computed) {
			diag(path_of(pp, file), d->line, "#include expects \"FILENAME\" or <FILENAME> (got: %s)",
			     facts_text(f, d));
			return;
		}
		name = computed;
	}
	pp->cur_file = file;
	pp->cur_found_at = found_at;
	Resolved r = incpath_resolve(pp->ip, pp->chain, file, found_at, name, angled,
				     d->kind == D_INCLUDE_NEXT);
	if (r.file < 0) {
		if (!pp->missing_ok)
			diag(path_of(pp, file), d->line, "%s: No such file or directory", name);
		TuMissing m = {file, i, facts_name(f, d), pp->g->nodes.n, true};
		if (computed) {
			/* keep the expanded name for -MG output */
			m.name = arena_strndup(&pp->mt.arena, computed, strlen(computed));
		}
		vec_push(&pp->g->missing, m);
		free(computed);
		return;
	}
	free(computed);
	include_file(pp, r.file, r.found_at, node, i, depth + 1);
}

/* Branch j (if, elif or else) of node's file is not taken. */
static void note_dead(Pp *pp, int node, const Facts *f, int j)
{
	const Directive *dirs = facts_dirs(f);
	int next = dirs[j].next;
	uint32_t to = next >= 0 && next < (int)f->ndirs ? dirs[next].line : f->lines + 1;
	if (node == 0) {
		vec_push(&pp->g->dead, dirs[j].line);
		vec_push(&pp->g->dead, to);
		return;
	}
	vec_push(&pp->g->hdead, (uint32_t)node);
	vec_push(&pp->g->hdead, dirs[j].line);
	vec_push(&pp->g->hdead, to);
}

static void run_directives(Pp *pp, int file, int found_at, int node, const Facts *f, int depth)
{
	const Directive *dirs = facts_dirs(f);
	int n = (int)f->ndirs;
	int i = 0;
	long line_delta = 0; /* from #line */
	while (i < n) {
		const Directive *d = &dirs[i];
		pp->mt.line = (long)d->line + line_delta;
		pp->mt.include_level = depth;
		pp->mt.file = file >= 0 ? path_of(pp, file) : "<command-line>";
		switch (d->kind) {
		case D_LINE: {
			char *end;
			long v = strtol(facts_text(f, d), &end, 10);
			if (end != facts_text(f, d))
				line_delta = v - (long)d->line - 1;
			break;
		}
		case D_IF:
		case D_IFDEF:
		case D_IFNDEF: {
			int j = i;
			for (;;) {
				if (branch_taken(pp, file, f, &dirs[j])) {
					i = j + 1;
					break;
				}
				if (node >= 0)
					note_dead(pp, node, f, j);
				j = dirs[j].next;
				if (j < 0 || j >= n) {
					i = n;
					break;
				}
				if (dirs[j].kind == D_ENDIF) {
					i = j + 1;
					break;
				}
			}
			continue;
		}
		case D_ELIF:
		case D_ELIFDEF:
		case D_ELIFNDEF:
		case D_ELSE: {
			/* the branch we were executing ends here */
			int j = i;
			while (j >= 0 && j < n && dirs[j].kind != D_ENDIF) {
				if (node >= 0)
					note_dead(pp, node, f, j);
				j = dirs[j].next;
			}
			i = j < 0 ? i + 1 : j + 1;
			continue;
		}
		case D_INCLUDE:
		case D_INCLUDE_NEXT:
			if (file >= 0) {
				if (node == 0 && i == pp->skip_dir)
					break;
				if (node == 0)
					pp->root_dir = i;
				do_include(pp, file, found_at, node, f, i, depth);
				if (node == 0)
					pp->root_dir = -1;
			}
			break;
		case D_DEFINE:
			mt_define(&pp->mt, f, d);
			break;
		case D_UNDEF:
			if (!(d->flags & DF_BADNAME))
				mt_undef(&pp->mt, facts_name(f, d), d->name_len);
			break;
		case D_ERROR:
			diag(path_of(pp, file), d->line, "#error %s", facts_text(f, d));
			break;
		default:
			break;
		}
		i++;
	}
}

static void include_file(Pp *pp, int file, int found_at, int from_node, int dir, int depth)
{
	int added = 0;
	int node = tu_node(pp->g, file, &added);
	if (from_node >= 0)
		tu_edge(pp->g, from_node, node, dir);
	ensure_cap(pp);
	if (pp->once[file] == pp->epoch)
		return;
	const Facts *f = fs_facts(pp->ft, file);
	if (!f)
		return;
	fs_report_errors(pp->ft, file);
	if (f->guard >= 0 &&
	    mt_defined(&pp->mt, facts_strs(f) + f->guard_name_off, f->guard_name_len) == TRI_TRUE)
		return;
	if (depth > MAX_DEPTH) {
		if (pp->cycle_told[file] != pp->epoch) {
			pp->cycle_told[file] = pp->epoch;
			int from_file = from_node >= 0 ? pp->g->nodes.v[from_node] : -1;
			const Facts *ff = from_file >= 0 ? pp->ft->files[from_file].facts : NULL;
			diag(path_of(pp, from_file), ff && dir >= 0 ? facts_dirs(ff)[dir].line : 0,
			     "#include nested depth %d exceeds maximum: include cycle through %s, "
			     "which has no include guard", MAX_DEPTH, path_of(pp, file));
		}
		return;
	}
	if (f->pragma_once)
		pp->once[file] = pp->epoch;
	/* each reading of the text starts with a (node, 0, mark) triple: a
	 * text read twice (no guard: <stddef.h> under __need_size_t, then
	 * for itself) may take a branch another reading skipped.  mark is
	 * the TU's #include that brought the reading (directive index + 1,
	 * 0: forced) << 1, | 1 for a reading that starts inside one of its
	 * own (define_trace.h), whose pairs cannot be told apart */
	vec_push(&pp->g->hdead, (uint32_t)node);
	vec_push(&pp->g->hdead, 0);
	vec_push(&pp->g->hdead, (uint32_t)(pp->root_dir + 1) << 1 | (pp->active[file] ? 1 : 0));
	pp->active[file]++;
	run_directives(pp, file, found_at, node, f, depth);
	pp->active[file]--;
}

void pp_walk_without(Pp *pp, const Unit *u, TuGraph *g, int dir)
{
	pp->skip_dir = dir;
	pp_walk(pp, u, g);
	pp->skip_dir = -1;
}

void pp_walk(Pp *pp, const Unit *u, TuGraph *g)
{
	Ctx *ctx = &pp->cfg->ctxs.v[u->ctx];
	pp->g = g;
	pp->chain = ctx->chain;
	if (++pp->epoch == 0)
		pp->epoch = 1;
	ensure_cap(pp);
	mt_reset(&pp->mt);
	pp->root_dir = -1;
	tu_reset(g, pp->ft->nfiles);
	tu_node(g, u->file, NULL);
	run_directives(pp, -1, FOUND_DIRECT, -1, ctx->prelude, 0);
	if (ctx->stdc_predef) {
		Resolved r = incpath_stdc_predef(pp->ip, ctx->chain);
		if (r.file >= 0)
			include_file(pp, r.file, r.found_at, 0, -1, 1);
	}
	for (int i = 0; i < ctx->nforced; i++) {
		Resolved r = incpath_forced(pp->ip, ctx->chain, ctx->forced[i]);
		if (r.file < 0) {
			diag(fs_keystr(pp->ft, ctx->forced[i]), 0, "cannot open -include file");
			continue;
		}
		include_file(pp, r.file, r.found_at, 0, -1, 1);
	}
	/* the TU itself: already node 0 */
	const Facts *f = fs_facts(pp->ft, u->file);
	if (!f)
		return;
	fs_report_errors(pp->ft, u->file);
	ensure_cap(pp);
	if (f->pragma_once)
		pp->once[u->file] = pp->epoch;
	run_directives(pp, u->file, FOUND_DIRECT, 0, f, 0);
	tu_index_dead(g);
}
