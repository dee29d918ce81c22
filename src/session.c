/*
 * session.c — option parsing and the setup every subcommand shares.
 *
 * Exact mode is chosen when a configuration is given: a
 * compile_commands.json, a kernel build directory, a -D/-U, or --exact.
 * Otherwise union mode: every macro the command line does not name is
 * unknown, and both sides of an unknown #if are kept.
 */
#include "session.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"
#include "decl.h"
#include "progress.h"

static void usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fflush(stdout);
	fprintf(stderr, "hdrslim %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see 'hdrslim %s --help')\n", cmd);
	exit(EXIT_FATAL);
}

/* --name=value or --name value */
static const char *value_of(int argc, char **argv, int *i, const char *name, const char *cmd)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (a[n] == '=')
		return a + n + 1;
	if (*i + 1 >= argc)
		usage_error(cmd, "option '%s' needs a value", name);
	return argv[++*i];
}

static int int_value(const char *v, const char *name, const char *cmd)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < 0 || n > 1000000000)
		usage_error(cmd, "option '%s' needs a non-negative number", name);
	return (int)n;
}

static bool is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

void options_parse(Options *o, int argc, char **argv, const char *cmd, const char *extra)
{
	memset(o, 0, sizeof(*o));
	o->kernel = -1;
	o->top = -1;
	o->max = -1;
	o->jobs = cpu_count();
	o->progress = -1;
	bool positional_only = false;
	for (int i = 0; i < argc;) {
		const char *a = argv[i];
		if (positional_only || a[0] != '-' || !a[1]) {
			vec_push(&o->args, xstrdup(a));
			i++;
			continue;
		}
		if (!strcmp(a, "--")) {
			positional_only = true;
			i++;
			continue;
		}
		if (flagset_take(&o->flags, argc, argv, &i, NULL))
			continue;
		if (is_opt(a, "--compdb"))
			o->compdb = xstrdup(value_of(argc, argv, &i, "--compdb", cmd));
		else if (is_opt(a, "--build")) {
			const char *dir = value_of(argc, argv, &i, "--build", cmd);
			if (o->build && !list_has(extra, "--build+"))
				usage_error(cmd, "--build given twice (verify, fix, series and dead --apply check "
					    "several configurations; %s reads one)", cmd);
			vec_push(&o->builds, xstrdup(dir));
			if (!o->build)
				o->build = xstrdup(dir);
		}
		else if (!strcmp(a, "-C") || is_opt(a, "--tree"))
			o->tree = xstrdup(value_of(argc, argv, &i, a[1] == 'C' ? "-C" : "--tree", cmd));
		else if (!strcmp(a, "--kernel"))
			o->kernel = 1;
		else if (!strncmp(a, "--kernel=", 9))
			o->kernel = 1, o->kernel_arch = xstrdup(a + 9);
		else if (!strcmp(a, "--no-kernel"))
			o->kernel = 0;
		else if (!strcmp(a, "--exact"))
			o->mode = 1;
		else if (!strcmp(a, "--union"))
			o->mode = 2;
		else if (!strcmp(a, "--no-cache"))
			o->no_cache = true;
		else if (!strcmp(a, "--clear-cache"))
			o->clear_cache = true;
		else if (!strcmp(a, "--stats"))
			o->stats = true;
		else if (!strcmp(a, "--show-config"))
			o->show_config = true;
		else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
			o->quiet = true;
		else if (!strcmp(a, "--progress"))
			o->progress = 1;
		else if (!strcmp(a, "--no-progress"))
			o->progress = 0;
		else if (!strcmp(a, "-j") || is_opt(a, "--jobs"))
			o->jobs = int_value(value_of(argc, argv, &i, a[1] == 'j' ? "-j" : "--jobs", cmd), "--jobs", cmd);
		else if (!strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9')
			o->jobs = int_value(a + 2, "-j", cmd);
		else if (is_opt(a, "--max-diags"))
			diag_limit = int_value(value_of(argc, argv, &i, "--max-diags", cmd), "--max-diags", cmd);
		else if (list_has(extra, "--make") && !strcmp(a, "--make"))
			o->make_rules = true;
		else if (list_has(extra, "-MG") && !strcmp(a, "-MG"))
			o->missing_ok = true;
		else if (list_has(extra, "--no-memo") && !strcmp(a, "--no-memo"))
			o->no_memo = true;
		else if (list_has(extra, "--json") && !strcmp(a, "--json"))
			o->json = true;
		else if (list_has(extra, "--dot") && !strcmp(a, "--dot"))
			o->dot = true;
		else if (list_has(extra, "--sort") && is_opt(a, "--sort"))
			o->sort = xstrdup(value_of(argc, argv, &i, "--sort", cmd));
		else if (list_has(extra, "--top") && is_opt(a, "--top"))
			o->top = int_value(value_of(argc, argv, &i, "--top", cmd), "--top", cmd);
		else if (list_has(extra, "--kinds") && is_opt(a, "--kinds"))
			o->kinds = xstrdup(value_of(argc, argv, &i, "--kinds", cmd));
		else if (list_has(extra, "--policy") && is_opt(a, "--policy"))
			o->policy = xstrdup(value_of(argc, argv, &i, "--policy", cmd));
		else if (list_has(extra, "--mapping") && is_opt(a, "--mapping"))
			o->mapping = xstrdup(value_of(argc, argv, &i, "--mapping", cmd));
		else if (list_has(extra, "--decl-macro") && is_opt(a, "--decl-macro")) {
			/* registered at once: every symbol-facts pass reads them */
			char *v = xstrdup(value_of(argc, argv, &i, "--decl-macro", cmd));
			for (char *t = strtok(v, ","); t; t = strtok(NULL, ","))
				decl_add_macro(t);
			free(v);
		} else if (list_has(extra, "--max") && is_opt(a, "--max"))
			o->max = int_value(value_of(argc, argv, &i, "--max", cmd), "--max", cmd);
		else
			usage_error(cmd, "unknown option '%s'", a);
		i++;
	}
	if (o->jobs < 1)
		o->jobs = 1;
	if (o->quiet)
		warnings_enabled = false;
	/* -q: no progress either, unless asked for by name */
	if (o->quiet && o->progress < 0)
		o->progress = 0;
	progress_setup(o->progress, cmd);
}

void options_free(Options *o)
{
	flagset_free(&o->flags);
	free(o->tree);
	free(o->compdb);
	free(o->build);
	for (int i = 0; i < o->builds.n; i++)
		free(o->builds.v[i]);
	vec_free(&o->builds);
	free(o->kernel_arch);
	free(o->sort);
	free(o->kinds);
	free(o->policy);
	free(o->mapping);
	for (int i = 0; i < o->args.n; i++)
		free(o->args.v[i]);
	vec_free(&o->args);
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

typedef struct {
	const char *root;
	Cache *cache;
	pthread_t thread;
} CacheOpen;

static void *open_cache(void *arg)
{
	CacheOpen *co = arg;
	co->cache = cache_open(co->root);
	return NULL;
}

void session_open(Session *s, Options *o, const char *tree, bool walk)
{
	memset(s, 0, sizeof(*s));
	s->opt = o;
	s->t_start = now_seconds();
	phase("options");
	struct stat st;
	if (stat(tree, &st) < 0)
		die("%s: cannot open tree: %s", tree, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die("%s: not a directory", tree);
	char *root = path_absolute(tree);
	fs_init(&s->ft, root);
	s->names = interner_new();
	config_init(&s->cfg, &s->ft);

	bool kernel = o->kernel == 1 || (o->kernel == -1 && kernel_detect(root));
	char *compdb = o->compdb ? path_absolute(o->compdb) : NULL;
	if (!compdb && !kernel) {
		char *auto_db = path_join(root, "compile_commands.json");
		if (is_file(auto_db))
			compdb = auto_db;
		else
			free(auto_db);
	}
	char *build = NULL;
	for (int i = 0; i < o->builds.n; i++) {
		const char *b = o->builds.v[i];
		if (!is_dir(b))
			die("%s: --build needs a Kbuild output directory", b);
		char *ac = path_join(b, "include/generated/autoconf.h");
		if (!is_file(ac))
			die("%s: not a prepared kernel build directory (no include/generated/autoconf.h; "
			    "run 'make O=%s defconfig prepare')", b, b);
		free(ac);
	}
	if (o->build) {
		build = path_absolute(o->build);
		kernel = true;
	}
	s->cfg.exact = o->mode == 1 ||
		       (o->mode == 0 && (compdb || build || o->flags.any_macro));
	if (o->clear_cache)
		cache_clear(root);
	phase("setup");
	/* the facts cache is read (its entries indexed) while the tree is
	 * walked: neither needs the other */
	CacheOpen co = {.root = root};
	bool opening = !o->no_cache && walk && pthread_create(&co.thread, NULL, open_cache, &co) == 0;
	if (!o->no_cache && !opening)
		s->ft.cache = cache_open(root);
	if (walk) {
		phase("walk");
		fs_walk(&s->ft, kernel ? kernel_excludes : NULL);
		s->walked = true;
	}
	if (opening) {
		pthread_join(co.thread, NULL);
		s->ft.cache = co.cache;
	}
	if (!compdb && !kernel) {
		char *flags_file = path_join(root, "compile_flags.txt");
		config_read_flags_file(&o->flags, flags_file);
		free(flags_file);
	}
	if (compdb)
		config_load_compdb(&s->cfg, compdb, &o->flags);
	s->compdb = compdb != NULL;
	if (kernel) {
		s->kernel = kernel_new(&s->cfg, root, o->kernel_arch, build, &o->flags);
		s->default_ctx = 0;
	} else {
		s->default_ctx = config_ctx(&s->cfg, &o->flags, -1);
	}
	s->ip = incpath_new(&s->cfg);
	if (s->cfg.exact) {
		s->pp = pp_new(&s->cfg, s->ip, s->names);
		pp_set_missing_ok(s->pp, o->missing_ok);
	} else {
		s->graph = graph_new(&s->cfg, s->ip, s->names);
	}
	free(compdb);
	free(build);
	free(root);
}

/* By file id the context of its unit, and by directory key that of the
 * first unit in that directory; built again when units were added. */
static void build_unit_maps(Session *s)
{
	FileTable *ft = &s->ft;
	free(s->unit_ctx);
	free(s->dir_ctx);
	s->nunits_mapped = s->cfg.units.n;
	s->nunit_ctx = ft->nfiles;
	s->unit_ctx = xmalloc(((size_t)s->nunit_ctx + 1) * sizeof(int));
	for (int i = 0; i < s->nunit_ctx; i++)
		s->unit_ctx[i] = -1;
	s->ndir_ctx = intern_count(ft->keys);
	s->dir_ctx = xmalloc(((size_t)s->ndir_ctx + 1) * sizeof(int));
	for (int i = 0; i < s->ndir_ctx; i++)
		s->dir_ctx[i] = -1;
	for (int u = 0; u < s->cfg.units.n; u++) {
		const Unit *un = &s->cfg.units.v[u];
		if (s->unit_ctx[un->file] < 0)
			s->unit_ctx[un->file] = un->ctx;
		char *dir = path_dirname(fs_keystr(ft, ft->files[un->file].key));
		int dk = intern_find(ft->keys, dir, strlen(dir));
		if (dk >= 0 && s->dir_ctx[dk] < 0)
			s->dir_ctx[dk] = un->ctx;
		free(dir);
	}
}

/* A file no compile_commands.json entry names: the context of an entry
 * in its directory, else in the nearest directory above it, else the
 * first entry's.  A header is read with the flags of the code around it
 * (the -I dirs its own #includes need), not with none. */
static int nearest_unit_ctx(Session *s, int file)
{
	FileTable *ft = &s->ft;
	char *dir = path_dirname(fs_keystr(ft, ft->files[file].key));
	int ctx = -1;
	while (ctx < 0) {
		int dk = intern_find(ft->keys, dir, strlen(dir));
		if (dk >= 0 && dk < s->ndir_ctx)
			ctx = s->dir_ctx[dk];
		if (!strcmp(dir, ".") || !strcmp(dir, "/"))
			break;
		char *up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(dir);
	return ctx >= 0 ? ctx : s->cfg.units.v[0].ctx;
}

bool session_exact_reached(const Session *s, int file)
{
	return !s->exact_seen || (file < s->nexact_seen && s->exact_seen[file]);
}

bool session_command_guessed(Session *s, int file)
{
	if (!s->pp)
		return false;
	if (s->kernel && s->opt->build) {
		const char *key = fs_keystr(&s->ft, s->ft.files[file].key);
		return !ends_with(key, ".c") || !kernel_builds(s->kernel, key);
	}
	return s->compdb && !session_is_unit(s, file);
}

bool session_is_unit(Session *s, int file)
{
	if (!s->cfg.units.n)
		return false;
	if (s->nunits_mapped != s->cfg.units.n)
		build_unit_maps(s);
	return file < s->nunit_ctx && s->unit_ctx[file] >= 0;
}

int session_ctx_for_file(Session *s, int file)
{
	if (s->cfg.units.n) {
		if (s->nunits_mapped != s->cfg.units.n)
			build_unit_maps(s);
		if (file < s->nunit_ctx && s->unit_ctx[file] >= 0)
			return s->unit_ctx[file];
		if (s->compdb)
			return nearest_unit_ctx(s, file);
	}
	if (s->kernel)
		return kernel_ctx_for(s->kernel, s->ft.files[file].key);
	return s->default_ctx;
}

Unit session_unit_for_path(Session *s, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		die("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		die("%s: is a directory, not a source file", path);
	char *abs = path_absolute(path);
	int key = fs_key(&s->ft, abs);
	free(abs);
	int file = fs_add(&s->ft, key, 0);
	Unit u = {file, session_ctx_for_file(s, file)};
	return u;
}

void session_all_units(Session *s)
{
	if (s->cfg.units.n)
		return; /* from compile_commands.json */
	for (int i = 0; i < s->ft.nfiles; i++) {
		File *f = &s->ft.files[i];
		if (!(f->flags & F_IN_TREE) || (f->flags & F_EXCLUDED))
			continue;
		if (!ends_with(fs_keystr(&s->ft, f->key), ".c"))
			continue;
		Unit u = {i, s->kernel ? kernel_ctx_for(s->kernel, f->key) : s->default_ctx};
		vec_push(&s->cfg.units, u);
	}
}

void session_lex(Session *s, const Unit *units, int n)
{
	if (s->lexed)
		return;
	s->lexed = true;
	IntVec files = {0};
	if (s->walked && !s->units_only) {
		for (int i = 0; i < s->ft.nfiles; i++)
			if (fs_in_file_set(&s->ft, i))
				vec_push(&files, i);
	}
	/* each file once: two workers must never load the same file */
	uint8_t *listed = xcalloc((size_t)s->ft.nfiles + 1, 1);
	for (int i = 0; i < files.n; i++)
		listed[files.v[i]] = 1;
	for (int i = 0; i < n; i++)
		if (!listed[units[i].file]) {
			listed[units[i].file] = 1;
			vec_push(&files, units[i].file);
		}
	free(listed);
	phase("lex");
	fs_lex_all(&s->ft, files.v, files.n, s->opt->jobs);
	vec_free(&files);
}

typedef struct {
	uint64_t hash; /* of the file's name, without its directory */
	int file;
} ByName;

static int cmp_by_name(const void *a, const void *b)
{
	const ByName *x = a, *y = b;
	return x->hash != y->hash ? (x->hash > y->hash) - (x->hash < y->hash) : (x->file > y->file) - (x->file < y->file);
}

static const char *base_name(const char *p)
{
	const char *b = strrchr(p, '/');
	return b ? b + 1 : p;
}

typedef struct {
	char *dir;  /* an include root: the tree-relative directory */
	int finds;  /* unresolved #include lines it would resolve */
} RootGuess;

/*
 * Union mode without a compile database or the kernel preset: an
 * #include that resolves to no file although the tree holds a file of
 * that name (git's `#include "builtin.h"` from builtin/ when the build
 * says -I.) makes every analysis of those files wrong, silently.  Say so
 * once, with the first such line, and name the -I directories that would
 * find them: the directory D for which D/NAME is a file of the tree,
 * counted over every such line.
 */
static void note_unreached_includes(Session *s)
{
	static bool noted;
	if (noted || !s->graph || s->kernel || s->compdb || !warnings_enabled)
		return;
	noted = true;
	FileTable *ft = &s->ft;
	VEC(ByName) names = {0};
	for (int f = 0; f < ft->nfiles; f++)
		if ((ft->files[f].flags & F_IN_TREE) && !(ft->files[f].flags & F_DIR)) {
			const char *b = base_name(fs_keystr(ft, ft->files[f].key));
			ByName e = {hash_bytes(b, strlen(b)), f};
			vec_push(&names, e);
		}
	if (names.n > 1)
		qsort(names.v, (size_t)names.n, sizeof(ByName), cmp_by_name);
	VEC(RootGuess) roots = {0};
	IntVec out = {0}, dirs = {0};
	int lines = 0, files = 0, first_file = -1;
	unsigned first_line = 0;
	const char *first_name = NULL;
	bool first_angled = false;
	for (int f = 0; f < ft->nfiles; f++) {
		const Facts *fa = ft->files[f].facts;
		if (!fa || !fs_in_file_set(ft, f))
			continue;
		int chain = s->cfg.ctxs.v[session_ctx_for_file(s, f)].chain;
		out.n = dirs.n = 0;
		graph_file_edges(s->graph, chain, f, &out, &dirs);
		bool counted = false;
		for (int k = 0; k < out.n; k++) {
			if (out.v[k] >= 0 || dirs.v[k] < 0 || dirs.v[k] >= (int)fa->ndirs)
				continue;
			const Directive *d = &facts_dirs(fa)[dirs.v[k]];
			if (d->flags & DF_COMPUTED)
				continue;
			const char *name = facts_name(fa, d);
			size_t nlen = strlen(name);
			const char *b = base_name(name);
			uint64_t h = hash_bytes(b, strlen(b));
			int lo = 0, hi = names.n;
			while (lo < hi) {
				int mid = (lo + hi) / 2;
				if (names.v[mid].hash < h)
					lo = mid + 1;
				else
					hi = mid;
			}
			bool found = false;
			for (int i = lo; i < names.n && names.v[i].hash == h; i++) {
				const char *p = fs_keystr(ft, ft->files[names.v[i].file].key);
				size_t plen = strlen(p);
				if (plen < nlen || strcmp(p + plen - nlen, name) ||
				    (plen > nlen && p[plen - nlen - 1] != '/'))
					continue;
				char *dir = plen > nlen ? xstrndup(p, plen - nlen - 1) : xstrdup(".");
				int r = 0;
				while (r < roots.n && strcmp(roots.v[r].dir, dir))
					r++;
				if (r == roots.n) {
					RootGuess g = {dir, 0};
					vec_push(&roots, g);
				} else {
					free(dir);
				}
				roots.v[r].finds++;
				found = true;
			}
			if (!found)
				continue;
			lines++;
			if (!counted)
				files++, counted = true;
			if (first_file < 0)
				first_file = f, first_line = d->line, first_name = name,
				first_angled = (d->flags & DF_ANGLED) != 0;
		}
	}
	if (lines) {
		/* the roots that find most, best first */
		for (int i = 1; i < roots.n; i++)
			for (int j = i; j > 0 && roots.v[j].finds > roots.v[j - 1].finds; j--) {
				RootGuess t = roots.v[j];
				roots.v[j] = roots.v[j - 1];
				roots.v[j - 1] = t;
			}
		StrBuf sb = {0};
		for (int r = 0; r < roots.n && r < 3; r++)
			sb_addf(&sb, r ? ", -I%s %d" : "-I%s would find %d", roots.v[r].dir, roots.v[r].finds);
		const char *q0 = first_angled ? "<" : "\"", *q1 = first_angled ? ">" : "\"";
		if (lines == 1)
			warn_at(session_path(s, first_file), first_line,
				"%s%s%s: no include path finds this header of the tree; %s "
				"(give the include paths, or a compile_commands.json)",
				q0, first_name, q1, sb_str(&sb));
		else
			warn_at(session_path(s, first_file), first_line,
				"%s%s%s: no include path finds it, nor %d more #include lines in %d files "
				"that name headers of the tree; %s of them (give the include paths, or a "
				"compile_commands.json)",
				q0, first_name, q1, lines - 1, files, sb_str(&sb));
		free(sb.buf);
	}
	for (int r = 0; r < roots.n; r++)
		free(roots.v[r].dir);
	vec_free(&roots);
	vec_free(&names);
	vec_free(&out);
	vec_free(&dirs);
}

void session_prepare(Session *s, const Unit *units, int n)
{
	session_lex(s, units, n);
	phase("graph");
	if (s->graph) {
		graph_prepare(s->graph, units, n);
		note_unreached_includes(s);
	}
}

/* A root's exact walk, kept: the graph's nodes, edges and dead
 * branches in one block after the header (a walk that found missing
 * includes is not kept: their names may live in the walk's own arena). */
struct KeptWalk {
	int ctx, nnodes, nedges, ndead, nhdead;
};

/* The memory the kept walks may take: the corpus projects' fit many times
 * over; a kernel configuration's 3,000 objects would take gigabytes, and
 * the rest of its roots are walked again. */
#define KEPT_WALK_BUDGET ((size_t)384 << 20)

static void keep_walk(Session *s, const Unit *u, const TuGraph *g)
{
	if (g->missing.n || !g->nodes.n)
		return;
	size_t bytes = sizeof(struct KeptWalk) + (size_t)g->nodes.n * sizeof(int) +
		       (size_t)g->edges.n * sizeof(TuEdge) + ((size_t)g->dead.n + g->hdead.n) * sizeof(uint32_t);
	if (s->kept_bytes + bytes > KEPT_WALK_BUDGET)
		return;
	if (u->file >= s->nkept) {
		int n = s->ft.nfiles + 1;
		s->kept = xrealloc(s->kept, (size_t)n * sizeof(*s->kept));
		memset(s->kept + s->nkept, 0, (size_t)(n - s->nkept) * sizeof(*s->kept));
		s->nkept = n;
	}
	if (s->kept[u->file])
		return;
	struct KeptWalk *k = xmalloc(bytes);
	*k = (struct KeptWalk){u->ctx, g->nodes.n, g->edges.n, g->dead.n, g->hdead.n};
	char *p = (char *)(k + 1);
	/* (an empty vector's pointer may be NULL, which memcpy may not get) */
	if (g->edges.n)
		memcpy(p, g->edges.v, (size_t)g->edges.n * sizeof(TuEdge));
	p += (size_t)g->edges.n * sizeof(TuEdge);
	memcpy(p, g->nodes.v, (size_t)g->nodes.n * sizeof(int));
	p += (size_t)g->nodes.n * sizeof(int);
	if (g->dead.n)
		memcpy(p, g->dead.v, (size_t)g->dead.n * sizeof(uint32_t));
	p += (size_t)g->dead.n * sizeof(uint32_t);
	if (g->hdead.n)
		memcpy(p, g->hdead.v, (size_t)g->hdead.n * sizeof(uint32_t));
	s->kept[u->file] = k;
	s->kept_bytes += bytes;
}

/* The kept walk of the unit, into g; false when there is none. */
static bool restore_walk(Session *s, const Unit *u, TuGraph *g)
{
	struct KeptWalk *k = u->file < s->nkept ? s->kept[u->file] : NULL;
	if (!k || k->ctx != u->ctx)
		return false;
	tu_reset(g, s->ft.nfiles);
	const char *p = (const char *)(k + 1);
	const TuEdge *edges = (const TuEdge *)p;
	p += (size_t)k->nedges * sizeof(TuEdge);
	const int *nodes = (const int *)p;
	p += (size_t)k->nnodes * sizeof(int);
	for (int i = 0; i < k->nnodes; i++)
		tu_node(g, nodes[i], NULL); /* (the file -> node slots too) */
	const uint32_t *dead = (const uint32_t *)p;
	const uint32_t *hdead = dead + k->ndead;
	vec_grow(&g->edges, k->nedges + 1);
	vec_grow(&g->dead, k->ndead + 1);
	vec_grow(&g->hdead, k->nhdead + 1);
	memcpy(g->edges.v, edges, (size_t)k->nedges * sizeof(TuEdge));
	memcpy(g->dead.v, dead, (size_t)k->ndead * sizeof(uint32_t));
	memcpy(g->hdead.v, hdead, (size_t)k->nhdead * sizeof(uint32_t));
	g->edges.n = k->nedges;
	g->dead.n = k->ndead;
	g->hdead.n = k->nhdead;
	tu_index_dead(g);
	return true;
}

void session_tu(Session *s, const Unit *u, TuGraph *g)
{
	if (s->pp) {
		if (!restore_walk(s, u, g))
			pp_walk(s->pp, u, g);
	} else {
		graph_tu(s->graph, u, g, false);
	}
}

void session_tu_without(Session *s, const Unit *u, TuGraph *g, int dir)
{
	pp_walk_without(s->pp, u, g, dir);
}

void session_tu_csr(Session *s, const Unit *u, TuGraph *g)
{
	if (s->pp) {
		if (!restore_walk(s, u, g))
			pp_walk(s->pp, u, g);
		tu_build_csr(g);
	} else {
		graph_tu(s->graph, u, g, true);
	}
}

const char *session_path(Session *s, int file)
{
	return fs_keystr(&s->ft, s->ft.files[file].key);
}

/* Whether the facts cache keeps the entries this run did not read: a run
 * that walked the tree and read every file knows which files are gone. */
static bool facts_keep_unused(const Session *s)
{
	return !s->walked || s->units_only;
}

/* The same for the symbols cache: a scoped run read only some files'. */
static bool syms_keep_unused(const Session *s)
{
	return !s->walked || s->scope;
}

static void save_late(CacheSaver *sv, Cache *c, bool keep_unused);

void session_close(Session *s)
{
	if (diag_muted_count && warnings_enabled) {
		bool kbuild = s->kernel && s->opt->build;
		fprintf(stderr,
			"hdrslim: note: the errors of %d file%s that no %s compiles or includes (read on %s "
			"own, with a neighbouring %s command) are not shown\n",
			diag_muted_count, diag_muted_count == 1 ? "" : "s",
			kbuild ? "object of the build directory" : "compile_commands.json entry",
			diag_muted_count == 1 ? "its" : "their", kbuild ? "object's" : "entry's");
	}
	phase("save-cache");
	save_late(&s->facts_saver, s->ft.cache, facts_keep_unused(s));
	save_late(&s->syms_saver, s->ft.syms_cache, syms_keep_unused(s));
	if (s->opt->stats) {
		phase_report();
		double t = now_seconds() - s->t_start;
		fprintf(stderr,
			"hdrslim: stats: mode %s, %d files known, %d lexed, %d from cache, "
			"%.1f MiB read, %d contexts, %d chains, %.3f s, peak RSS %ld MiB\n",
			s->cfg.exact ? "exact" : "union", s->ft.nfiles, s->ft.lexed, s->ft.cache_hits,
			(double)s->ft.bytes_read / (1024.0 * 1024.0), s->cfg.ctxs.n, s->cfg.chains.n, t,
			peak_rss_kib() / 1024);
		if (s->ft.syms_cache)
			fprintf(stderr, "hdrslim: stats: symbol facts: %d from cache, %d saved in place\n",
				s->ft.syms_cache_hits, cache_saved_in_place(s->ft.syms_cache));
		if (s->scope) {
			int n = 0;
			for (int i = 0; i < s->nscope; i++)
				n += s->scope[i];
			fprintf(stderr, "hdrslim: stats: scope: %d files, the closures of the files named\n", n);
		}
		if (s->graph) {
			GraphStats gs = graph_stats(s->graph);
			fprintf(stderr,
				"hdrslim: stats: graph: %d files with edges, %d edges, %d unresolved, "
				"%d computed includes left unknown\n",
				gs.files_with_edges, gs.edges, gs.unresolved, gs.computed_unknown);
		}
	}
	fflush(stdout);
	if (ferror(stdout))
		die("error writing output: %s", strerror(errno));
	if (s->last && !FREE_AT_EXIT)
		return;
	if (s->provides)
		s->provides_free(s->provides);
	free(s->scope);
	for (int i = 0; i < s->nkept; i++)
		free(s->kept[i]);
	free(s->kept);
	vec_free(&s->exact_from);
	vec_free(&s->exact_to);
	free(s->exact_seen);
	free(s->unit_ctx);
	free(s->dir_ctx);
	graph_free(s->graph);
	pp_free(s->pp);
	incpath_free(s->ip);
	kernel_free(s->kernel);
	config_free(&s->cfg);
	fs_free(&s->ft);
	interner_free(s->names);
	config_release_compiler_info();
}

static void *run_save(void *arg)
{
	cache_save_finish(arg);
	return NULL;
}

/* What the cache holds now is written on a thread of its own. */
static void save_early(CacheSaver *sv, Cache *c, bool keep_unused)
{
	if (!c || sv->running)
		return;
	CacheSave *job = cache_save_begin(c, keep_unused);
	sv->running = job && pthread_create(&sv->thread, NULL, run_save, job) == 0;
	if (!sv->running)
		cache_save_finish(job);
}

/* At the end: waits for an early save, then saves what it did not see
 * (files read after it was called go to the journal), or saves now. */
static void save_late(CacheSaver *sv, Cache *c, bool keep_unused)
{
	if (sv->running)
		pthread_join(sv->thread, NULL);
	if (c)
		cache_save(c, keep_unused);
}

void session_save_cache_early(Session *s)
{
	save_early(&s->facts_saver, s->ft.cache, facts_keep_unused(s));
}

void session_save_syms_early(Session *s)
{
	save_early(&s->syms_saver, s->ft.syms_cache, syms_keep_unused(s));
}

int session_status(void)
{
	return diag_errors ? EXIT_FINDINGS : EXIT_OK;
}

static void exact_edges_compact(Session *s);

/* ---- exact mode: every root walked once ---- */

int session_root_ctx(Session *s, int f, int fallback, int nctx)
{
	FileTable *ft = &s->ft;
	int c = -1;
	if ((ft->files[f].flags & F_IN_TREE) && !(ft->files[f].flags & F_EXCLUDED) && ft->files[f].facts &&
	    session_in_scope(s, f))
		c = session_ctx_for_file(s, f);
	return c >= 0 && c < nctx ? c : fallback;
}

/* A root of the walk: a file of the set, in the tree.  In a Kbuild
 * configuration only the C files it compiles: the headers they reach are
 * walked inside their closures, and what it does not compile includes
 * nothing in it (the whole tree, 30,000 .c files and more, is also an
 * order of magnitude slower to walk than defconfig's 3,000 objects). */
static bool is_exact_root(Session *s, int f)
{
	const File *fl = &s->ft.files[f];
	if (!fs_in_file_set(&s->ft, f) || !fl->facts || !(fl->flags & F_IN_TREE) || (fl->flags & F_EXCLUDED))
		return false;
	if (!s->kernel || !s->opt->build)
		return true;
	const char *key = fs_keystr(&s->ft, fl->key);
	return ends_with(key, ".c") && kernel_builds(s->kernel, key);
}

/* Exact mode reads the closures as it walks them and has no union graph
 * to learn who includes whom from: walk every root now, in the context a
 * check gives it (the file set's first file's as the fallback), so that
 * every file the analyses will meet (system headers first reached under
 * one entry's flags) is in the file table before a symbol index is built
 * over it, and record the include edges the walks take: the includers a
 * header finding's fallout, and a split's reach, are computed over.  The
 * same for a Kbuild configuration (--build): there the walks are its
 * objects', with its arch/ARCH/include and CONFIG_ branches, so the edges
 * are the ones it compiles. */
void session_exact_walk(Session *s)
{
	if (!s->pp || s->exact_met_from)
		return;
	int first = -1;
	for (int f = 0; f < s->ft.nfiles && first < 0; f++)
		if (fs_in_file_set(&s->ft, f))
			first = f;
	if (first < 0)
		return;
	phase("exact-walk");
	int fallback = session_ctx_for_file(s, first), nctx = s->cfg.ctxs.n;
	int n0 = s->ft.nfiles;
	TuGraph g = {0};
	int nroots = 0;
	for (int f = 0; f < n0; f++)
		nroots += is_exact_root(s, f);
	Progress *pr = progress_begin(NULL, "files walked", nroots);
	for (int f = 0; f < n0; f++) {
		if (!is_exact_root(s, f))
			continue; /* the analyses read it only inside closures */
		Unit u = {f, session_root_ctx(s, f, fallback, nctx)};
		/* a header walked on its own has a guessed command: its
		 * errors are not the tree's (a TU that includes it says so
		 * under its own); the others are said now, since the walk is
		 * kept for the analyses and not run again */
		diag_muted = session_command_guessed(s, f);
		session_tu(s, &u, &g);
		diag_muted = false;
		session_record_exact_edges(s, &g);
		keep_walk(s, &u, &g);
		s->exact_seen = xrealloc(s->exact_seen, (size_t)s->ft.nfiles + 1);
		memset(s->exact_seen + s->nexact_seen, 0, (size_t)(s->ft.nfiles + 1 - s->nexact_seen));
		s->nexact_seen = s->ft.nfiles + 1;
		for (int v = 0; v < g.nodes.n; v++)
			s->exact_seen[g.nodes.v[v]] = 1;
		progress_add(pr, 1);
	}
	progress_end(pr);
	tu_free(&g);
	/* a header outside the tree first met there is read inside closures
	 * only, never as a root of its own (a libc bits/ header alone is an
	 * #error) */
	s->exact_met_from = n0;
}

void session_include_edges(Session *s, IncludeEdges *e)
{
	int n = s->ft.nfiles;
	e->n = n;
	IntVec from = {0}, to = {0}, out = {0};
	for (int f = 0; f < n; f++) {
		if (!s->ft.files[f].facts || !s->graph || !(s->ft.files[f].flags & F_IN_TREE) ||
		    (s->scope && (f >= s->nscope || !s->scope[f])))
			continue;
		int ctx = session_ctx_for_file(s, f); /* may grow cfg.ctxs */
		int chain = s->cfg.ctxs.v[ctx].chain;
		out.n = 0;
		graph_file_targets(s->graph, chain, f, &out);
		for (int k = 0; k < out.n; k++)
			if (out.v[k] >= 0 && out.v[k] != f) {
				vec_push(&from, f);
				vec_push(&to, out.v[k]);
			}
	}
	if (!s->graph && s->exact_from.n > s->exact_unique)
		exact_edges_compact(s);
	if (!s->graph)
		for (int i = 0; i < s->exact_from.n; i++)
			if (s->exact_from.v[i] < n && s->exact_to.v[i] < n) {
				vec_push(&from, s->exact_from.v[i]);
				vec_push(&to, s->exact_to.v[i]);
			}
	csr_build(n, from.v, to.v, from.n, &e->fwd_off, &e->fwd);
	csr_build(n, to.v, from.v, to.n, &e->rev_off, &e->rev);
	vec_free(&from);
	vec_free(&to);
	vec_free(&out);
}

static int cmp_edge(const void *a, const void *b)
{
	const int *x = a, *y = b;
	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Sorts the recorded edges and keeps each once. */
static void exact_edges_compact(Session *s)
{
	int n = s->exact_from.n;
	int *pairs = xmalloc(((size_t)n + 1) * 2 * sizeof(int));
	for (int i = 0; i < n; i++) {
		pairs[2 * i] = s->exact_from.v[i];
		pairs[2 * i + 1] = s->exact_to.v[i];
	}
	if (n)
		qsort(pairs, (size_t)n, 2 * sizeof(int), cmp_edge);
	s->exact_from.n = s->exact_to.n = 0;
	for (int i = 0; i < n; i++) {
		if (i && pairs[2 * i] == pairs[2 * i - 2] && pairs[2 * i + 1] == pairs[2 * i - 1])
			continue;
		vec_push(&s->exact_from, pairs[2 * i]);
		vec_push(&s->exact_to, pairs[2 * i + 1]);
	}
	free(pairs);
	s->exact_unique = s->exact_from.n;
}

void session_record_exact_edges(Session *s, const TuGraph *g)
{
	for (int i = 0; i < g->edges.n; i++) {
		const TuEdge *e = &g->edges.v[i];
		if (e->from < 0 || e->to < 0)
			continue;
		int a = g->nodes.v[e->from], b = g->nodes.v[e->to];
		if (a != b) {
			vec_push(&s->exact_from, a);
			vec_push(&s->exact_to, b);
		}
	}
	/* many walks cross the same headers: keep each edge once, now and
	 * then, so that memory follows the distinct edges */
	if (s->exact_from.n > 2 * s->exact_unique + (1 << 20))
		exact_edges_compact(s);
}

void include_edges_free(IncludeEdges *e)
{
	free(e->fwd_off);
	free(e->fwd);
	free(e->rev_off);
	free(e->rev);
	memset(e, 0, sizeof(*e));
}
