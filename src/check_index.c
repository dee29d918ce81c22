/*
 * check_index.c — the symbol index the check reads everything through.
 * Every name a file provides is interned and numbered (tags as "struct
 * NAME"); by name id, its provides as (file, kind, under an #if of unknown
 * value), the headers' before the .c files' (a closure rarely holds a .c
 * file); by file, its uses as name ids.  Built once per run over every
 * file with symbol facts.  On a whole tree the interning runs on a thread
 * of its own while the graph is built (index_ahead), hidden behind it.
 * The names no finding can turn on are dropped and the rest numbered
 * densely (keep_live_names), so that every table by name id is the
 * smaller.  Also the tree's include edges both ways (build_rev), which the
 * pragmas and the fallout walk.
 */
#include "check_index.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_seeds.h"

size_t provide_text(const char *s, size_t n, bool tag, char *buf, size_t cap, const char **out)
{
	if (!tag) {
		*out = s;
		return n;
	}
	if (n > cap - 8)
		return (size_t)-1;
	memcpy(buf, "struct ", 7);
	memcpy(buf + 7, s, n);
	*out = buf;
	return n + 7;
}

/* The interner's hash of a name's interned text (0 for a tag name too
 * long to intern), for lookups whose table slots are fetched ahead. */
static uint32_t name_hash(const char *s, size_t n, bool tag, char *buf, size_t cap)
{
	n = provide_text(s, n, tag, buf, cap, &s);
	return n == (size_t)-1 ? 0 : intern_hash(s, n);
}

int name_id(Interner *in, const char *s, size_t n, bool tag, bool add)
{
	char buf[300];
	n = provide_text(s, n, tag, buf, sizeof(buf), &s);
	if (n == (size_t)-1)
		return -1;
	return add ? intern(in, s, n) : intern_find(in, s, n);
}

/* A definition that -Wmissing-prototypes wants a prototype in sight
 * for: a function with external linkage. */
static bool wants_prototype(const SymEntry *pe)
{
	return pe->kind == SK_FUNC_DEF && !(pe->flags & PF_STATIC);
}

/* Appends to file f's uses a prototype use (UF_PROTO) for each function it
 * defines with external linkage and has not declared itself before;
 * protos is scratch. */
static void add_prototype_uses(Check *ck, int f, const Symbols *sy, IntVec *protos)
{
	const int *ids = ck->fprov + ck->fprov_off[f];
	protos->n = 0; /* (name id, line) of the file's own prototypes */
	for (uint32_t k = 0; k < sy->nprovides; k++)
		if (sym_provides(sy)[k].kind == SK_FUNC_DECL) {
			vec_push(protos, ids[k]);
			vec_push(protos, (int)sym_provides(sy)[k].line);
		}
	for (uint32_t k = 0; k < sy->nprovides; k++) {
		const SymEntry *pe = &sym_provides(sy)[k];
		if (!wants_prototype(pe) || ids[k] < 0 || ids[k] >= ck->nnames)
			continue;
		bool declared = false;
		for (int j = 0; j < protos->n && !declared; j += 2)
			declared = protos->v[j] == ids[k] && (uint32_t)protos->v[j + 1] < pe->line;
		if (!declared)
			vec_push(&ck->uses[f], use_ref(ids[k], UF_PROTO, pe->line));
	}
}

typedef struct {
	Check *ck;
	int next; /* the next block of files */
} UsesJob;

/* Each file's uses as name ids; a name nobody provides cannot decide
 * anything and is left out, unless a macro may make it by pasting: then
 * it is a use of that seed. */
static void *uses_worker(void *arg)
{
	UsesJob *job = arg;
	Check *ck = job->ck;
	FileTable *ft = &ck->s->ft;
	int nnames = ck->nnames;
	VEC(uint32_t) hash = {0};
	IntVec own_protos = {0}; /* a file's prototypes: (name id, line) pairs */
	char buf[300];
	for (int from, to; next_files(&job->next, ft->nfiles, &from, &to);) {
		for (int f = from; f < to; f++) {
			const Symbols *sy = ft->files[f].syms;
			if (!sy)
				continue;
			/* the names hashed first, so that the table's slots can be
			 * fetched a few names ahead of their lookup */
			vec_grow(&hash, (int)sy->nuses);
			int ndefs = 0;
			for (uint32_t k = 0; k < sy->nprovides; k++)
				ndefs += wants_prototype(&sym_provides(sy)[k]);
			if (sy->nuses + (uint32_t)ndefs && !ck->uses[f].cap) { /* at most one each: no doubling */
				ck->uses[f].v = xmalloc((sy->nuses + (uint32_t)ndefs) * sizeof(UseRef));
				ck->uses[f].cap = (int)sy->nuses + ndefs;
			}
			for (uint32_t k = 0; k < sy->nuses; k++) {
				const SymEntry *e = &sym_uses(sy)[k];
				hash.v[k] = name_hash(sym_name(sy, e), e->name_len, e->flags & UF_TAG, buf, sizeof(buf));
			}
			enum { AHEAD = 8 };
			for (uint32_t k = 0; k < sy->nuses; k++) {
				if (k + AHEAD < sy->nuses)
					intern_prefetch(ck->names, hash.v[k + AHEAD]);
				const SymEntry *e = &sym_uses(sy)[k];
				const char *name = sym_name(sy, e);
				if (e->name_len > 2 && name[e->name_len - 1] == '#') {
					struct Prefix px = {name, e->name_len - 2u};
					vec_push(&ck->prefixes[f], px);
					continue;
				}
				const char *t;
				size_t n = provide_text(name, e->name_len, e->flags & UF_TAG, buf, sizeof(buf), &t);
				int id = n == (size_t)-1 ? -1 : intern_find_hashed(ck->names, t, n, hash.v[k]);
				if (id < 0 && (e->flags & UF_CODE) && !(e->flags & UF_TAG))
					id = pasted_seed(ck, name, e->name_len); /* in code: made by a macro call */
				if (id < 0 || id >= nnames)
					continue;
				vec_push(&ck->uses[f], use_ref(id, e->flags, e->line));
			}
			if (ndefs)
				add_prototype_uses(ck, f, sy, &own_protos);
		}
	}
	vec_free(&hash);
	vec_free(&own_protos);
	return NULL;
}

int unknown_ranges(Check *ck, int file, const uint32_t **rg)
{
	Session *s = ck->s;
	*rg = NULL;
	if (!s->graph || !s->ft.files[file].syms || !s->ft.files[file].syms->nprovides)
		return 0;
	File *fl = &s->ft.files[file];
	int ctx = (fl->flags & F_IN_TREE) && !(fl->flags & F_EXCLUDED) ? session_ctx_for_file(s, file) : s->default_ctx;
	if (ctx < 0 || ctx >= s->cfg.ctxs.n)
		ctx = s->default_ctx;
	return graph_file_unknown(s->graph, s->cfg.ctxs.v[ctx].chain, file, rg);
}

bool in_ranges(const uint32_t *rg, int n, uint32_t line)
{
	for (int i = 0; i < n; i++)
		if (line >= rg[2 * i] && line < rg[2 * i + 1])
			return true;
	return false;
}

/* The hashes of every provided name ("struct NAME" for a tag) of the
 * listed files; off[i] is where files[i]'s are. */
typedef struct {
	Symbols *const *syms; /* by file id */
	const int *files;
	int n;
	int *off;
	uint32_t *hash;
	int next;
} HashJob;

/* The interner hash of each name sy provides, into out[]. */
static void hash_provides(const Symbols *sy, uint32_t *out)
{
	char buf[300];
	for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
		const SymEntry *e = &sym_provides(sy)[k];
		out[k] = name_hash(sym_name(sy, e), e->name_len, sym_is_tag_kind(e->kind), buf, sizeof(buf));
	}
}

static void *hash_worker(void *arg)
{
	HashJob *job = arg;
	for (int from, to; next_files(&job->next, job->n, &from, &to);)
		for (int i = from; i < to; i++)
			hash_provides(job->syms[job->files[i]], job->hash + job->off[i]);
	return NULL;
}

/* name_id for a provide whose hash is known; -1 for a tag name too long */
static int provide_id(Interner *in, const char *s, size_t n, bool tag, uint32_t hash)
{
	char buf[300];
	const char *t;
	size_t len = provide_text(s, n, tag, buf, sizeof(buf), &t);
	if (len == (size_t)-1)
		return -1;
	/* the name as the symbol facts hold it (NUL-terminated, and kept
	 * until the session ends, after the index) needs no copy */
	return t == s ? intern_hashed_borrowed(in, t, len, hash) : intern_hashed(in, t, len, hash);
}

/* Every provide's name id, with how many provides (and seeds) each name
 * has: what build_index starts from.  Names get their ids in a fixed
 * order of the files (files_with_syms), whichever thread interns them. */
typedef struct ProvideIndex ProvideIndex;
struct ProvideIndex {
	Interner *names;
	IntVec order;  /* the files, in the order their names were interned */
	IntVec ids;    /* their provides' name ids, file after file in that order */
	IntVec count, scount;
};

/* Appends what file provides to px: the name ids, and each name's count.
 * hash[k] is provide k's hash, and the `ahead` ones after them are the
 * next files': the table's slots are prefetched a few names ahead. */
static void intern_file_provides(ProvideIndex *px, int file, const Symbols *sy, const uint32_t *hash, int ahead)
{
	enum { AHEAD = 16 };
	int np = sy ? (int)sy->nprovides : 0;
	vec_push(&px->order, file);
	vec_grow(&px->ids, px->ids.n + np);
	for (int k = 0; k < np; k++) {
		if (k + AHEAD < np + ahead)
			intern_prefetch(px->names, hash[k + AHEAD]);
		const SymEntry *e = &sym_provides(sy)[k];
		int id = provide_id(px->names, sym_name(sy, e), e->name_len, sym_is_tag_kind(e->kind), hash[k]);
		if (id < 0) /* a tag name too long to intern: a name no use can match */
			id = name_id(px->names, "", 0, false, true);
		vec_push(&px->ids, id);
		while (px->count.n <= id) {
			vec_push(&px->count, 0);
			vec_push(&px->scount, 0);
		}
		if (e->kind == SK_SEED)
			px->scount.v[id]++;
		else
			px->count.v[id]++;
	}
}

/* Interns the names the listed files provide, appending to px.  They are
 * hashed on every core first, then interned in list order (so ids do not
 * depend on the number of threads) with the table's cache misses
 * overlapped by prefetching. */
static void index_provides(ProvideIndex *px, Symbols *const *syms, const int *files, int n, int jobs)
{
	if (!px->names)
		px->names = interner_new();
	HashJob hj = {.syms = syms, .files = files, .n = n};
	hj.off = xcalloc((size_t)n + 1, sizeof(int));
	for (int i = 0; i < n; i++)
		hj.off[i + 1] = hj.off[i] + (syms[files[i]] ? (int)syms[files[i]]->nprovides : 0);
	int nprov = hj.off[n];
	hj.hash = xmalloc((size_t)nprov * sizeof(uint32_t) + 1);
	run_threads(hash_worker, &hj, jobs);
	intern_reserve(px->names, nprov / 2);
	vec_grow(&px->ids, px->ids.n + nprov);
	for (int i = 0; i < n; i++)
		intern_file_provides(px, files[i], syms[files[i]], hj.hash + hj.off[i], nprov - hj.off[i + 1]);
	free(hj.hash);
	free(hj.off);
}

static void provide_index_free(ProvideIndex *px)
{
	if (!px)
		return;
	interner_free(px->names);
	vec_free(&px->order);
	vec_free(&px->ids);
	vec_free(&px->count);
	vec_free(&px->scount);
	free(px);
}

/* The files with symbol facts of the tree's file set (fs_in_file_set),
 * or the others, by file id.  The names of the first are interned first,
 * those of the files included from elsewhere (tools/, an .inl file, a
 * system header) after them: the order both ways of building the index
 * keep. */
static void files_with_syms(const FileTable *ft, bool primary, IntVec *out)
{
	out->n = 0;
	for (int f = 0; f < ft->nfiles; f++)
		if (ft->files[f].syms && fs_in_file_set(ft, f) == primary)
			vec_push(out, f);
}

/* The index prepared while the graph was built (index_ahead), when it
 * holds exactly the primary files this run reads: a whole-tree run. */
static ProvideIndex *adopt_prepared(Session *s, const IntVec *primary)
{
	ProvideIndex *px = s->provides;
	s->provides = NULL;
	if (!px)
		return NULL;
	bool same = !s->scope && px->order.n == primary->n;
	for (int i = 0; i < primary->n && same; i++)
		same = px->order.v[i] == primary->v[i];
	if (!same) {
		provide_index_free(px);
		return NULL;
	}
	return px;
}

/*
 * Numbers densely the names a finding can turn on: those some file uses
 * (with the seeds a use may stand for), and the functions files define
 * (their prototypes are used).  Of the kernel's 4 M provided names fewer
 * than half are such; the rest (register #defines by the million) need
 * no provider lists, and every table by name id is the smaller.  Ids
 * keep the interner's order, so ties between findings break as before.
 * The uses and the provides by file get the new ids (-1: a name no
 * finding needs); so do count and scount, by name id.  Exact mode keeps
 * every name: a file's live part is read again later, and its uses are
 * looked up then.
 */
static void keep_live_names(Check *ck, IntVec *count, IntVec *scount)
{
	FileTable *ft = &ck->s->ft;
	int n = ck->nnames;
	if (ck->s->cfg.exact || !n)
		return;
	uint8_t *live = xcalloc((size_t)n + 1, 1);
	for (int f = 0; f < ft->nfiles; f++)
		for (int k = 0; k < ck->uses[f].n; k++)
			live[ck->uses[f].v[k].id] = 1;
	for (int f = 0; f < ft->nfiles; f++) {
		const Symbols *sy = ft->files[f].syms;
		for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
			int kind = sym_provides(sy)[k].kind;
			if (kind == SK_SEED || kind == SK_FUNC_DEF)
				live[ck->fprov[ck->fprov_off[f] + (int)k]] = 1;
		}
	}
	int *old2new = xmalloc((size_t)n * sizeof(int));
	IntVec new2old = {0};
	while (count->n < n)
		vec_push(count, 0);
	while (scount->n < n)
		vec_push(scount, 0);
	for (int id = 0; id < n; id++) {
		old2new[id] = live[id] ? new2old.n : -1;
		if (!live[id])
			continue;
		/* new ids never pass old ones: the by-name arrays shrink in place */
		count->v[new2old.n] = count->v[id];
		scount->v[new2old.n] = scount->v[id];
		ck->is_paste_seed[new2old.n] = ck->is_paste_seed[id];
		vec_push(&new2old, id);
	}
	count->n = scount->n = new2old.n;
	free(live);
	for (int f = 0; f < ft->nfiles; f++)
		for (int k = 0; k < ck->uses[f].n; k++)
			ck->uses[f].v[k].id = old2new[ck->uses[f].v[k].id];
	for (int k = 0; k < ck->fprov_off[ft->nfiles]; k++)
		ck->fprov[k] = old2new[ck->fprov[k]];
	if (!new2old.v)
		vec_grow(&new2old, 1);
	ck->old2new = old2new;
	ck->new2old = new2old.v;
	ck->nnames = new2old.n;
	if (ck->s->opt->stats)
		fprintf(stderr, "hdrslim: stats: names: %d of %d can decide a finding\n", ck->nnames, n);
}

void build_index(Check *ck)
{
	FileTable *ft = &ck->s->ft;
	ck->nfiles = ft->nfiles;
	/* every file with facts gets its symbol facts (most already have
	 * them when the graph was built with the index alongside) */
	IntVec all = {0};
	for (int i = 0; i < ft->nfiles; i++)
		if (ft->files[i].facts && !ft->files[i].syms && session_in_scope(ck->s, i))
			vec_push(&all, i);
	phase("symbols");
	fs_symbols_all(ft, all.v, all.n, ck->s->opt->jobs);
	phase("symbol-index");
	Symbols **syms = xmalloc(((size_t)ft->nfiles + 1) * sizeof(*syms));
	for (int f = 0; f < ft->nfiles; f++)
		syms[f] = ft->files[f].syms;
	files_with_syms(ft, true, &all);
	ProvideIndex *px = adopt_prepared(ck->s, &all);
	if (!px) {
		px = xcalloc(1, sizeof(*px));
		index_provides(px, syms, all.v, all.n, ck->s->opt->jobs);
	}
	files_with_syms(ft, false, &all);
	index_provides(px, syms, all.v, all.n, ck->s->opt->jobs);
	vec_free(&all);
	free(syms);
	/* ids by file id: fprov_off[f] is where file f's are */
	ck->fprov_off = xcalloc((size_t)ft->nfiles + 1, sizeof(int));
	for (int f = 0; f < ft->nfiles; f++)
		ck->fprov_off[f + 1] = ck->fprov_off[f] + (ft->files[f].syms ? (int)ft->files[f].syms->nprovides : 0);
	IntVec ids = {0};
	vec_grow(&ids, px->ids.n);
	ids.n = px->ids.n;
	for (int i = 0, at = 0; i < px->order.n; i++) {
		int f = px->order.v[i];
		int np = ft->files[f].syms ? (int)ft->files[f].syms->nprovides : 0;
		memcpy(ids.v + ck->fprov_off[f], px->ids.v + at, (size_t)np * sizeof(int));
		at += np;
	}
	ck->names = px->names;
	IntVec count = px->count, scount = px->scount;
	px->names = NULL;
	px->count = (IntVec){0};
	px->scount = (IntVec){0};
	provide_index_free(px);
	ck->fprov = ids.v;
	ck->nnames = intern_count(ck->names);
	if (ck->s->opt->stats)
		fprintf(stderr, "hdrslim: stats: symbol index: %d provides, %d distinct names\n", ids.n, ck->nnames);
	phase("symbol-uses");
	/* uses, as name ids (lookups only: in parallel) */
	ck->uses = xcalloc((size_t)ft->nfiles + 1, sizeof(*ck->uses));
	ck->prefixes = xcalloc((size_t)ft->nfiles + 1, sizeof(*ck->prefixes));
	index_pasted_seeds(ck, scount.v);
	UsesJob job = {ck, 0};
	run_threads(uses_worker, &job, ck->s->opt->jobs);
	phase("symbol-names");
	keep_live_names(ck, &count, &scount);
	phase("symbol-provides");
	int nnames = ck->nnames;
	ck->prov_off = xcalloc((size_t)nnames + 1, sizeof(int));
	for (int i = 0; i < nnames; i++)
		ck->prov_off[i + 1] = ck->prov_off[i] + count.v[i];
	ck->provs = xmalloc((size_t)ck->prov_off[nnames] * sizeof(Prov) + 1);
	ck->seed_off = xcalloc((size_t)nnames + 1, sizeof(int));
	for (int i = 0; i < nnames; i++)
		ck->seed_off[i + 1] = ck->seed_off[i] + scount.v[i];
	ck->seed_file = xmalloc((size_t)ck->seed_off[nnames] * sizeof(int) + 1);
	/* prov_off[id] and seed_off[id] serve as id's cursors and end as the
	 * next id's starts: shifted back after (no fill counts by name) */
	int at = 0;
	for (int f = 0; f < ft->nfiles; f++) {
		const Symbols *sy = ft->files[f].syms;
		if (!sy)
			continue;
		const uint32_t *rg;
		int nrg = unknown_ranges(ck, f, &rg);
		for (uint32_t k = 0; k < sy->nprovides; k++) {
			const SymEntry *e = &sym_provides(sy)[k];
			int id = ck->fprov[at++];
			if (id < 0)
				continue;
			if (e->kind == SK_SEED)
				ck->seed_file[ck->seed_off[id]++] = f;
			else
				ck->provs[ck->prov_off[id]++] = (Prov){f, e->line, e->kind, in_ranges(rg, nrg, e->line)};
		}
	}
	memmove(ck->prov_off + 1, ck->prov_off, (size_t)nnames * sizeof(int));
	ck->prov_off[0] = 0;
	memmove(ck->seed_off + 1, ck->seed_off, (size_t)nnames * sizeof(int));
	ck->seed_off[0] = 0;
	vec_free(&scount);
	vec_free(&count);
	/* per name, the .c files' provides last: a closure rarely holds a .c
	 * file, and pr_fmt or DRV_NAME is defined in thousands of them */
	ck->is_c = xcalloc((size_t)ft->nfiles + 1, 1);
	for (int f = 0; f < ft->nfiles; f++)
		ck->is_c[f] = ends_with(fs_keystr(ft, ft->files[f].key), ".c");
	ck->prov_hdr_end = xmalloc(((size_t)nnames + 1) * sizeof(int));
	VEC(Prov) tmp = {0};
	for (int id = 0; id < nnames; id++) {
		int a = ck->prov_off[id], b = ck->prov_off[id + 1], w = a;
		tmp.n = 0;
		for (int k = a; k < b; k++) {
			if (ck->is_c[ck->provs[k].file])
				vec_push(&tmp, ck->provs[k]);
			else
				ck->provs[w++] = ck->provs[k];
		}
		ck->prov_hdr_end[id] = w;
		for (int k = 0; k < tmp.n; k++)
			ck->provs[w++] = tmp.v[k];
	}
	vec_free(&tmp);
	ck->unresolved = xcalloc((size_t)ft->nfiles + 1, sizeof(IntVec));
	ck->has_unresolved = xcalloc((size_t)ft->nfiles + 1, 1);
}

void build_rev(Check *ck)
{
	if (ck->rev_built)
		return;
	ck->rev_built = true;
	IncludeEdges e;
	session_include_edges(ck->s, &e);
	ck->fwd_off = e.fwd_off;
	ck->fwd = e.fwd;
	ck->rev_off = e.rev_off;
	ck->rev = e.rev;
}

void index_file_seeds(Check *ck)
{
	IntVec file = {0}, sid = {0};
	for (int id = 0, nnames = ck->nnames; id < nnames; id++)
		for (int k = ck->seed_off[id]; k < ck->seed_off[id + 1]; k++) {
			vec_push(&file, ck->seed_file[k]);
			vec_push(&sid, id);
		}
	csr_build(ck->nfiles, file.v, sid.v, file.n, &ck->fseed_off, &ck->fseed);
	vec_free(&file);
	vec_free(&sid);
}

struct IndexAhead {
	FileTable *ft;
	int jobs;
	File *copies;      /* the files with facts, copied: the graph may move
			    * the table's arrays meanwhile */
	const char **keys;
	int *ids;
	bool *primary;
	int n, nfiles;
	uint8_t *done;     /* by copy: its symbol facts are there */
	ProvideIndex *px;
	pthread_t thread;
	bool started;
};

static void *symbols_ahead(void *arg)
{
	IndexAhead *a = arg;
	fs_symbols_detached(a->ft, a->copies, a->keys, a->n, a->jobs, a->done);
	return NULL;
}

/* Computes the symbol facts on a->jobs threads and interns what the files
 * of the file set provide as they come, in file order: the names keep
 * the ids of a run that interns them afterwards, and the interning
 * (a second or so of CPU on the kernel) hides behind the symbol facts
 * instead of following them on one core. */
static void *index_ahead(void *arg)
{
	IndexAhead *a = arg;
	a->done = xcalloc((size_t)a->n + 1, 1);
	pthread_t facts;
	bool trailing = pthread_create(&facts, NULL, symbols_ahead, a) == 0;
	if (!trailing)
		symbols_ahead(a);
	a->px = xcalloc(1, sizeof(*a->px));
	a->px->names = interner_new();
	/* the table sized once, as index_provides does from the count: a
	 * file's macro provides are its #defines, the rest come at about
	 * one per 512 bytes of code (the kernel's: 1 per 430) */
	long guess = 0;
	for (int i = 0; i < a->n; i++) {
		const Facts *f = a->copies[i].facts;
		if (!a->primary[i])
			continue;
		for (uint32_t j = 0; j < f->ndirs; j++)
			guess += facts_dirs(f)[j].kind == D_DEFINE;
		if (!f->directives_only)
			guess += (long)(a->copies[i].size / 512);
	}
	guess = guess > INT_MAX / 4 ? INT_MAX / 4 : guess;
	intern_reserve(a->px->names, (int)(guess / 2));
	vec_grow(&a->px->ids, (int)guess);
	vec_grow(&a->px->count, (int)(guess / 2));
	vec_grow(&a->px->scount, (int)(guess / 2));
	VEC(uint32_t) hash = {0};
	for (int i = 0; i < a->n; i++) {
		while (!__atomic_load_n(&a->done[i], __ATOMIC_ACQUIRE)) {
			/* caught up: a file takes the workers ~0.1 ms */
			struct timespec pause = {0, 500000};
			nanosleep(&pause, NULL);
		}
		const Symbols *sy = a->copies[i].syms;
		if (!sy || !a->primary[i])
			continue;
		vec_grow(&hash, (int)sy->nprovides + 1);
		hash_provides(sy, hash.v);
		intern_file_provides(a->px, a->ids[i], sy, hash.v, 0);
	}
	vec_free(&hash);
	if (trailing)
		pthread_join(facts, NULL);
	free(a->done);
	return NULL;
}

IndexAhead *index_ahead_start(Session *s)
{
	FileTable *ft = &s->ft;
	IndexAhead *a = xcalloc(1, sizeof(*a));
	a->ft = ft;
	a->jobs = s->opt->jobs;
	a->nfiles = ft->nfiles;
	a->copies = xmalloc(((size_t)ft->nfiles + 1) * sizeof(File));
	a->keys = xmalloc(((size_t)ft->nfiles + 1) * sizeof(char *));
	a->ids = xmalloc(((size_t)ft->nfiles + 1) * sizeof(int));
	a->primary = xmalloc(((size_t)ft->nfiles + 1) * sizeof(bool));
	for (int i = 0; i < ft->nfiles; i++) {
		if (!ft->files[i].facts)
			continue;
		a->copies[a->n] = ft->files[i];
		a->keys[a->n] = fs_keystr(ft, ft->files[i].key); /* interned strings stay put */
		a->primary[a->n] = fs_in_file_set(ft, i);
		a->ids[a->n++] = i;
	}
	a->started = pthread_create(&a->thread, NULL, index_ahead, a) == 0;
	if (!a->started)
		index_ahead(a);
	return a;
}

void index_ahead_finish(Session *s, IndexAhead *a)
{
	phase("symbols-wait"); /* what the graph did not hide */
	if (a->started)
		pthread_join(a->thread, NULL);
	for (int i = 0; i < a->n; i++) {
		File *f = &s->ft.files[a->ids[i]];
		f->syms = a->copies[i].syms;
		f->syms_mapped = a->copies[i].syms_mapped;
	}
	s->provides = a->px;
	s->provides_free = provide_index_free;
	free(a->copies);
	free(a->keys);
	free(a->ids);
	free(a->primary);
	free(a);
}
