/*
 * check_session.c — the session a check runs on (check_open_session).
 * Every .c and .h file of the tree is a root of the graph, even when only
 * some are checked: a header's fallout lands on its includers.  Except
 * when the files named are .c files that nothing includes: then only
 * their closures are read, which is what makes checking one file fast.
 * On a whole tree the symbol index is built while the graph is.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "check_impl.h"
#include "check_index.h"

/* Whether the spelled name (n bytes) may name the file whose tree key is
 * k through some include directory: its tail at a '/' boundary, leading
 * ./ and ../ aside. */
static bool key_tail(const char *k, const char *name, size_t n)
{
	for (;;) {
		if (n >= 2 && name[0] == '.' && name[1] == '/')
			name += 2, n -= 2;
		else if (n >= 3 && name[0] == '.' && name[1] == '.' && name[2] == '/')
			name += 3, n -= 3;
		else
			break;
	}
	size_t kl = strlen(k);
	return n && n <= kl && !memcmp(k + kl - n, name, n) && (n == kl || k[kl - n - 1] == '/');
}

/* Whether `#include name` in file `from` (quoted or not) may include one
 * of the files of `named` (ids) with that base name. */
static bool include_may_name(FileTable *ft, int from, const char *name, size_t n, bool quoted,
			     const IntVec *named)
{
	if (quoted && from >= 0) {
		/* next to the includer first: when that file exists, it is
		 * the one */
		char *dir = path_dirname(fs_keystr(ft, ft->files[from].key));
		char *spelled = xstrndup(name, n);
		int cand = fs_probe(ft, fs_key_join(ft, fs_key(ft, dir), spelled));
		free(dir);
		free(spelled);
		if (cand >= 0) {
			for (int i = 0; i < named->n; i++)
				if (named->v[i] == cand)
					return true;
			return false;
		}
	}
	for (int i = 0; i < named->n; i++)
		if (key_tail(fs_keystr(ft, ft->files[named->v[i]].key), name, n))
			return true;
	return false;
}

/* Whether some file of the tree may include one of `files`: some
 * #include, or a macro body a computed #include could use, names it. */
static bool maybe_included(Session *s, const IntVec *tree_files, const IntVec *files)
{
	FileTable *ft = &s->ft;
	/* base name -> the named files with it */
	Interner *bases = interner_new();
	VEC(IntVec) by_base = {0};
	for (int i = 0; i < files->n; i++) {
		const char *k = fs_keystr(ft, ft->files[files->v[i]].key);
		const char *b = strrchr(k, '/');
		int id = intern_cstr(bases, b ? b + 1 : k);
		while (by_base.n <= id) {
			IntVec empty = {0};
			vec_push(&by_base, empty);
		}
		vec_push(&by_base.v[id], files->v[i]);
	}
	bool found = false;
	for (int i = 0; i < tree_files->n && !found; i++) {
		int from = tree_files->v[i];
		const Facts *f = ft->files[from].facts;
		for (uint32_t k = 0; f && k < f->ndirs && !found; k++) {
			const Directive *d = &facts_dirs(f)[k];
			if (d->kind == D_DEFINE) {
				/* a computed #include takes its name from a macro:
				 * "x.c" or <x.c> in a macro body */
				const char *t = facts_text(f, d), *end = t + d->text_len;
				for (const char *q = t; !found && (q = facts_next_c_name(q, end)); q += 2) {
					const char *b = q, *start;
					while (b > t && b[-1] != '/' && b[-1] != '"' && b[-1] != '<')
						b--;
					for (start = b; start > t && start[-1] != '"' && start[-1] != '<';)
						start--;
					int id = intern_find(bases, b, (size_t)(q + 2 - b));
					found = id >= 0 && include_may_name(ft, -1, start, (size_t)(q + 2 - start), false,
									    &by_base.v[id]);
				}
				continue;
			}
			if ((d->kind != D_INCLUDE && d->kind != D_INCLUDE_NEXT) || (d->flags & DF_COMPUTED))
				continue;
			const char *name = facts_name(f, d);
			const char *b = memrchr(name, '/', d->name_len);
			b = b ? b + 1 : name;
			int id = intern_find(bases, b, d->name_len - (size_t)(b - name));
			found = id >= 0 && include_may_name(ft, from, name, d->name_len,
							    (d->flags & DF_QUOTED) && d->kind == D_INCLUDE, &by_base.v[id]);
		}
	}
	for (int i = 0; i < by_base.n; i++)
		vec_free(&by_base.v[i]);
	vec_free(&by_base);
	interner_free(bases);
	return found;
}

typedef struct {
	FileTable *ft;
	const int *files;
	int n, next;
	uint8_t *may; /* by index in files: fs_may_name_code */
} NamesCodeJob;

static void *names_code_worker(void *arg)
{
	NamesCodeJob *job = arg;
	for (int from, to; next_files(&job->next, job->n, &from, &to);)
		for (int i = from; i < to; i++)
			job->may[i] = fs_may_name_code(job->ft, job->files[i]);
	return NULL;
}

void check_open_session(Session *s, Options *o, const char *tree, char **paths, int npaths,
			IntVec *files)
{
	session_open(s, o, tree, true);
	for (int i = 0; i < npaths; i++) {
		Unit u = session_unit_for_path(s, paths[i]);
		vec_push(files, u.file);
	}
	IntVec tree_files = {0};
	for (int i = 0; i < s->ft.nfiles; i++)
		if (fs_in_file_set(&s->ft, i))
			vec_push(&tree_files, i);
	/*
	 * Every file of the tree is a root of the graph, even when only some
	 * are checked: a header's fallout lands on its includers.  Except when
	 * the files named are .c files that nothing includes: then their
	 * findings have no fallout, and their closures are all the run needs
	 * to read (scope).
	 */
	bool scoped = files->n > 0 && !s->pp;
	for (int i = 0; i < files->n && scoped; i++)
		scoped = ends_with(fs_keystr(&s->ft, s->ft.files[files->v[i]].key), ".c");
	if (scoped) {
		/* only the files that may include a .c file need reading: the
		 * cache knows which they are without reading the rest */
		phase("lex");
		NamesCodeJob job = {&s->ft, tree_files.v, tree_files.n, 0,
				    xcalloc((size_t)tree_files.n + 1, 1)};
		run_threads(names_code_worker, &job, o->jobs);
		IntVec may = {0};
		for (int i = 0; i < tree_files.n; i++)
			if (job.may[i])
				vec_push(&may, tree_files.v[i]);
		free(job.may);
		fs_lex_all(&s->ft, may.v, may.n, o->jobs);
		scoped = !maybe_included(s, &may, files);
		vec_free(&may);
	}
	if (!files->n)
		for (int i = 0; i < tree_files.n; i++)
			vec_push(files, tree_files.v[i]);
	/* the units' contexts are set before the graph is prepared (lexing
	 * needs only their files) */
	VEC(Unit) units = {0};
	for (int i = 0; i < tree_files.n && !scoped; i++) {
		Unit u = {tree_files.v[i], -1};
		vec_push(&units, u);
	}
	for (int i = 0; i < files->n; i++) {
		Unit u = {files->v[i], -1};
		vec_push(&units, u);
	}
	vec_free(&tree_files);
	s->units_only = scoped; /* the graph reads the rest of the closures as it meets them */
	if (!scoped && s->graph && o->index_ahead) {
		/* the symbol names need only the files' own facts: index them
		 * on a thread of their own while the contexts are worked out
		 * (the kernel's: every directory's Makefile) and the graph is
		 * built */
		session_lex(s, units.v, units.n);
		IndexAhead *ahead = index_ahead_start(s);
		phase("units");
		for (int i = 0; i < units.n; i++)
			units.v[i].ctx = session_ctx_for_file(s, units.v[i].file);
		session_prepare(s, units.v, units.n);
		index_ahead_finish(s, ahead);
	} else {
		for (int i = 0; i < units.n; i++)
			units.v[i].ctx = session_ctx_for_file(s, units.v[i].file);
		session_prepare(s, units.v, units.n);
	}
	if (scoped) {
		/* the closures of the files named, and of every header in
		 * them read in its own context, as the check reads it */
		s->nscope = s->ft.nfiles;
		s->scope = xcalloc((size_t)s->nscope + 1, 1);
		for (int i = 0; i < units.n; i++)
			s->scope[units.v[i].file] = 1;
		TuGraph g = {0};
		int done = 0;
		while (done < units.n) {
			int end = units.n;
			for (int i = done; i < end; i++) {
				session_tu(s, &units.v[i], &g);
				for (int v = 0; v < g.nodes.n; v++) {
					int f = g.nodes.v[v];
					if (f >= s->nscope || s->scope[f])
						continue;
					s->scope[f] = 1;
					File *fl = &s->ft.files[f];
					if (!(fl->flags & F_IN_TREE) || (fl->flags & F_EXCLUDED) || !fl->facts)
						continue; /* read in the fallback context, as any file outside */
					Unit u = {f, session_ctx_for_file(s, f)};
					vec_push(&units, u);
				}
			}
			if (units.n > end)
				graph_prepare(s->graph, units.v + end, units.n - end);
			done = end;
		}
		tu_free(&g);
	}
	vec_free(&units);
	/* The graph has read every file's directives; from here on a file's
	 * are read again only when it is checked and has includes, which a
	 * kernel's 300 MB of register headers do not. */
	if (s->graph)
		cache_drop_resident(s->ft.cache);
}
