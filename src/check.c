/*
 * check.c — the include findings of check.h.
 *
 * Three steps.  First a symbol index over every file the run knows: name
 * id -> (file, kind) for what files provide, and per file the name ids it
 * uses.  Then, for every header, the uses its own closure leaves
 * unresolved: a header that relies on its includer for u32 makes u32 a
 * use of everything that includes it.  Last, for each file asked about,
 * its include graph and immediate dominators: a node whose dominator
 * chain reaches the root through direct include c (and c is reached only
 * through that #include line) leaves the closure with c.  A used name
 * depends on c when all its providers in the closure leave with c.
 */
#include "check.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "decl.h"
#include "progress.h"
#include "tu.h"

typedef struct {
	int file;
	uint8_t kind;
	bool cond; /* union mode: not there in every configuration */
} Prov;

/* 8 bytes: the kernel's files have 4.9 M of them. */
typedef struct {
	int id;             /* name id */
	unsigned line : 25; /* USE_LINE_MAX for any later line */
	unsigned flags : 7; /* UseFlags */
} UseRef;
#define USE_LINE_MAX ((1u << 25) - 1)

/* Use flag of check's own, beside UseFlags: a function the file defines,
 * which wants its prototype in sight (-Wmissing-prototypes): only a
 * declaration satisfies it, never the definition itself.  Each file's
 * uses end with these (for its definitions, in order). */
#define UF_PROTO 64

static UseRef use_ref(int id, unsigned flags, uint32_t line)
{
	return (UseRef){id, line < USE_LINE_MAX ? line : USE_LINE_MAX, flags};
}

/* One use of a name: file and index in its uses. */
typedef struct {
	int file, k;
} UserRef;

/* One thread's state for the root it reads (see struct Root below). */
/* A set of name ids: open addressing over a power-of-two table (-1
 * empty) that grows before it is half full (lset_add). */
typedef struct {
	IntVec slots;
	int count;
} NameSet;

typedef struct Root Root;

struct Check {
	Session *s;
	unsigned kinds;
	bool strict;
	Interner *names;   /* symbol names; tags are stored as "struct NAME" */
	/* The names a finding can turn on, numbered densely in the
	 * interner's order (see keep_live_names): every table by name id
	 * is by these ids.  NULL: all of the interner's, as they are. */
	int nnames;
	int *old2new;      /* by interner id: the name id, -1 none */
	int *new2old;      /* by name id: the interner id */
	int *prov_off;     /* CSR: name id -> provs */
	Prov *provs;
	int *prov_hdr_end; /* by name id: provs from .c files come after this */
	int *seed_off;     /* CSR: name id -> the files with it as a seed (SK_SEED,
			    * kept apart: u32 is a seed of thousands of trace
			    * headers, scanned for nothing by every use of u32) */
	int *seed_file;
	uint8_t *is_c;     /* by file id: a .c file */
	VEC(UseRef) *uses; /* by file id */
	/* the seeds "P##" (a macro pastes onto P): by name id, and the
	 * lengths of P by P's first two bytes (see for_pasted_seeds) */
	uint8_t *is_paste_seed;
	uint64_t *paste_lens;
	VEC(struct Prefix { const char *s; uint32_t n; }) *prefixes; /* by file id: NAME of
			    * NAME##param in its macro bodies (decl.c's "NAME##" uses) */
	IntVec *unresolved; /* by file id: names a header's closure cannot provide */
	bool *has_unresolved;
	int *need_off, *need; /* CSR: name id -> the headers that leave it unresolved */
	/* The unresolved lists again in the form check_file reads them for
	 * every root, most of its work: the names in them numbered densely
	 * ("needs", so per-root marks stay in cache), and per need and
	 * flavour (complete type or not) its providers copied out, filtered
	 * by kind, headers first (see index_needs). */
	int nneeds;
	int *need_of_name;   /* by name id: its need, -1 none */
	int *need_name;      /* by need: the name id */
	int *cu_off, *cu;    /* CSR by file id: need << 1 | complete */
	int *np_off;         /* CSR by need << 1 | complete: into np */
	int *np_hdr_end;     /* ... where the .c files' provides start */
	int *np;             /* provider file << 1 | under an unknown #if */
	int *need_seed_off, *need_seed; /* CSR by need: collect_seed_names */
	int *fneed_off, *fneed; /* CSR by file id: the needs among its provides */
	const int **seed_lists; /* by name id: seed_names' answers, NULL not yet */
	uint64_t *seed_bloom;   /* see seed_bloom_has */
	int *seed_need_off, *seed_need; /* CSR by name id: the needs it is a seed name of */
	int *fseed_off, *fseed; /* CSR by file id: the seeds it has */
	int *user_off;        /* CSR: name id -> the files that use it */
	UserRef *users;
	/* whole-tree reverse include edges, for fallout */
	int *rev_off, *rev;
	int *fwd_off, *fwd;  /* and forward */
	int *fprov_off, *fprov; /* by file: the name ids it provides */
	bool rev_built;
	int nfiles;
	int fallback_ctx;
	int *ctx_of_file; /* filled before the threads start */
	int *nested_off, *nested; /* CSR by file id: see index_nested */
	/* what users wrote: IWYU pragmas and the mapping file */
	int *public_of;   /* by file id: the header to include instead, or -1 */
	bool any_export;  /* some file exports an include */
	int *spell_ctx;   /* by file id: see check_spelling_prepare */
	int nspell_ctx;
	/* by worker thread: its tables (sized by names, needs and files) are
	 * kept from one pass over the roots to the next, not made again */
	Root *roots;
	int nroots;
};

static const char *const kind_names[FK_NKINDS] = {
	"unused", "replaceable", "redundant", "missing", "forward-declarable",
};

const char *check_kind_name(int kind)
{
	return kind >= 0 && kind < FK_NKINDS ? kind_names[kind] : "?";
}

static void add_unique(IntVec *v, int x);
static void findings_free_one(Finding *f);

/* ---- the symbol index ---- */

/* The interned text of a name: "struct NAME" for a tag (buf holds it);
 * (size_t)-1 for a tag name too long to intern. */
static size_t provide_text(const char *s, size_t n, bool tag, char *buf, size_t cap, const char **out)
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

static int name_id(Interner *in, const char *s, size_t n, bool tag, bool add)
{
	char buf[300];
	n = provide_text(s, n, tag, buf, sizeof(buf), &s);
	if (n == (size_t)-1)
		return -1;
	return add ? intern(in, s, n) : intern_find(in, s, n);
}

/* ---- what users wrote ---- */

/* A name's id by its interned text, -1 when it is not one of ck's names. */
static int find_name(const Check *ck, const char *s, size_t n)
{
	int id = intern_find(ck->names, s, n);
	return id < 0 || !ck->old2new ? id : ck->old2new[id];
}

static const char *name_str(const Check *ck, int id)
{
	return intern_str(ck->names, ck->new2old ? ck->new2old[id] : id);
}

static int name_len(const Check *ck, int id)
{
	return intern_len(ck->names, ck->new2old ? ck->new2old[id] : id);
}

static const Symbols *syms_of(const Check *ck, int file)
{
	return ck->s->ft.files[file].syms;
}

static bool has_pragma(const Symbols *sy, unsigned line, int kind)
{
	for (uint32_t k = 0; sy && k < sy->npragmas; k++)
		if (sym_pragmas(sy)[k].kind == kind && sym_pragmas(sy)[k].line == line)
			return true;
	return false;
}

/* An include line whose file's names count as the includer's own. */
static bool exported_line(const Symbols *sy, unsigned line)
{
	if (!sy || !sy->npragmas)
		return false;
	if (has_pragma(sy, line, PR_EXPORT))
		return true;
	/* inside begin_exports ... end_exports: the nearest of the two before
	 * the line is a begin (the pragmas are not in line order) */
	const SymEntry *last = NULL;
	for (uint32_t k = 0; k < sy->npragmas; k++) {
		const SymEntry *e = &sym_pragmas(sy)[k];
		if ((e->kind == PR_BEGIN_EXPORTS || e->kind == PR_END_EXPORTS) && e->line < line &&
		    (!last || e->line > last->line))
			last = e;
	}
	return last && last->kind == PR_BEGIN_EXPORTS;
}

/* An include line no finding may remove. */
static bool kept_line(const Symbols *sy, unsigned line)
{
	return sy && sy->npragmas &&
	       (has_pragma(sy, line, PR_KEEP) || has_pragma(sy, line, PR_NESTED) || exported_line(sy, line));
}

/* A file the run knows is there: one it read, or a .c or .h file of the
 * tree (a run about a few files reads only what it needs). */
static bool known_file(const FileTable *ft, int f)
{
	const File *fl = &ft->files[f];
	return fl->facts || (!(fl->flags & F_READ_ERROR) && fs_in_file_set(ft, f));
}

/* The file a spelled header names: "x.h" next to `from` first, else any
 * known file whose path ends in it (in the tree first, then the
 * shortest).  -1 when none. */
static int resolve_spelled(Check *ck, int from, const char *spelled, size_t n)
{
	FileTable *ft = &ck->s->ft;
	bool quoted = n >= 2 && spelled[0] == '"';
	if (n >= 2 && (spelled[0] == '"' || spelled[0] == '<')) {
		spelled++;
		n -= 2;
	}
	char *name = xasprintf("%.*s", (int)n, spelled);
	int best = -1;
	if (from >= 0 && quoted) {
		char *dir = path_dirname(fs_keystr(ft, ft->files[from].key));
		char *joined = strcmp(dir, ".") ? xasprintf("%s/%s", dir, name) : xstrdup(name);
		for (int f = 0; f < ft->nfiles && best < 0; f++)
			if (known_file(ft, f) && !strcmp(fs_keystr(ft, ft->files[f].key), joined))
				best = f;
		free(dir);
		free(joined);
	}
	size_t best_len = 0;
	bool best_in_tree = false;
	if (best < 0) {
		for (int f = 0; f < ft->nfiles; f++) {
			if (!known_file(ft, f))
				continue;
			const char *k = fs_keystr(ft, ft->files[f].key);
			size_t kl = strlen(k);
			if (kl < n || strcmp(k + kl - n, name) || (kl > n && k[kl - n - 1] != '/'))
				continue;
			bool in_tree = ft->files[f].flags & F_IN_TREE;
			if (best < 0 || (in_tree && !best_in_tree) || (in_tree == best_in_tree && kl < best_len)) {
				best = f;
				best_len = kl;
				best_in_tree = in_tree;
			}
		}
	}
	free(name);
	return best;
}

/* Whether a spelled header names file f (by path suffix). */
static bool spelled_is(Check *ck, const char *spelled, size_t n, int f)
{
	if (n >= 2 && (spelled[0] == '"' || spelled[0] == '<')) {
		spelled++;
		n -= 2;
	}
	const char *k = fs_keystr(&ck->s->ft, ck->s->ft.files[f].key);
	size_t kl = strlen(k);
	return kl >= n && !memcmp(k + kl - n, spelled, n) && (kl == n || k[kl - n - 1] == '/');
}

/* The header to suggest to `from` instead of target: where a private
 * header or a mapping says users should go. */
static int public_home(const Check *ck, int from, int target)
{
	for (int i = 0; i < 8 && target >= 0 && ck->public_of[target] >= 0 && ck->public_of[target] != from; i++)
		target = ck->public_of[target];
	return target;
}

/* Whether file says never to include target (IWYU pragma: no_include). */
static bool no_include(Check *ck, int file, int target)
{
	const Symbols *sy = syms_of(ck, file);
	for (uint32_t k = 0; sy && k < sy->npragmas; k++) {
		const SymEntry *e = &sym_pragmas(sy)[k];
		if (e->kind == PR_NO_INCLUDE && spelled_is(ck, sym_name(sy, e), e->name_len, target))
			return true;
	}
	return false;
}

static void build_rev(Check *ck);

static void read_pragmas(Check *ck)
{
	FileTable *ft = &ck->s->ft;
	ck->public_of = xmalloc(((size_t)ft->nfiles + 1) * sizeof(int));
	for (int f = 0; f < ft->nfiles; f++)
		ck->public_of[f] = -1;
	for (int f = 0; f < ft->nfiles; f++) {
		const Symbols *sy = ft->files[f].syms;
		for (uint32_t k = 0; sy && k < sy->npragmas; k++) {
			const SymEntry *e = &sym_pragmas(sy)[k];
			if (e->kind == PR_EXPORT || e->kind == PR_BEGIN_EXPORTS)
				ck->any_export = true;
			if (e->kind == PR_PRIVATE && e->name_len) {
				int pub = resolve_spelled(ck, f, sym_name(sy, e), e->name_len);
				if (pub >= 0 && pub != f)
					ck->public_of[f] = pub;
			}
		}
	}
	/* A system library's bits/ headers are its own (glibc's say "never
	 * include directly", or only work after the public one): their
	 * public face is the header outside bits/ that includes them, maybe
	 * through other bits/ headers. */
	build_rev(ck);
	for (int f = 0; f < ft->nfiles; f++) {
		if ((ft->files[f].flags & F_IN_TREE) || ck->public_of[f] >= 0 || !strstr(fs_keystr(ft, ft->files[f].key), "/bits/"))
			continue;
		/* the nearest includer outside bits/, up through bits/ ones */
		IntVec queue = {0};
		vec_push(&queue, f);
		for (int qi = 0; qi < queue.n && qi < 64 && ck->public_of[f] < 0; qi++)
			for (int k = ck->rev_off[queue.v[qi]]; k < ck->rev_off[queue.v[qi] + 1]; k++) {
				int by = ck->rev[k];
				if (by == f || (ft->files[by].flags & F_IN_TREE))
					continue;
				if (!strstr(fs_keystr(ft, ft->files[by].key), "/bits/")) {
					ck->public_of[f] = by;
					break;
				}
				vec_push(&queue, by);
			}
		vec_free(&queue);
	}
}

/* The spelled headers of one mapping line, at most two: "<a.h> -> <b.h>"
 * or, in an IWYU mapping, the quoted strings of
 * { include: ["<a.h>", "private", "\"b.h\"", "public"] } that are headers. */
static int mapping_headers(char *line, char *hs[2])
{
	int nh = 0;
	bool iwyu = strstr(line, "include:") != NULL;
	for (char *p = line; *p && nh < 2; p++) {
		if (iwyu) {
			if (*p != '"')
				continue;
			/* a JSON string: unescape in place */
			char *w = p + 1, *r = p + 1;
			while (*r && *r != '"') {
				if (*r == '\\' && r[1])
					r++;
				*w++ = *r++;
			}
			if (!*r)
				return -1;
			*w = 0;
			if ((p[1] == '<' || p[1] == '"') && w - p > 3)
				hs[nh++] = p + 1;
			p = r;
		} else if (*p == '<' || *p == '"') {
			char *q = strchr(p + 1, *p == '<' ? '>' : '"');
			if (!q)
				return -1;
			char end = q[1];
			q[1] = 0;
			hs[nh++] = p;
			if (!end)
				break;
			p = q + 1;
		} else if (*p == '#') {
			break; /* a comment */
		}
	}
	return nh;
}

void check_load_mapping(Check *ck, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		die("%s: cannot read the mapping file: %s", path, strerror(errno));
	FileTable *ft = &ck->s->ft;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	while (getline(&line, &cap, fp) >= 0) {
		lineno++;
		if (memchr(line, 0, strlen(line) + 1) != line + strlen(line))
			die("%s:%d: NUL byte in the mapping file", path, lineno);
		char *t = line + strspn(line, " \t\r\n[]{},");
		if (!*t || *t == '#' || !strncmp(t, "//", 2))
			continue;
		char *hs[2];
		if (mapping_headers(line, hs) != 2)
			die("%s:%d: expected '<private.h> -> <public.h>' or an IWYU include mapping", path, lineno);
		int pub = resolve_spelled(ck, -1, hs[1], strlen(hs[1]));
		if (pub < 0)
			continue; /* not in this tree */
		for (int f = 0; f < ft->nfiles; f++)
			if (known_file(ft, f) && f != pub && spelled_is(ck, hs[0], strlen(hs[0]), f))
				ck->public_of[f] = pub;
	}
	free(line);
	fclose(fp);
}

typedef struct {
	Check *ck;
	int next; /* the next block of files */
} UsesJob;

/* A filter of the names that are some file's seed, so that the runs of
 * a name that are none (nearly all) cost no lookup in the interner's
 * four million names: a run is hashed as it grows, one byte a step. */
#define SEED_BLOOM_BITS 20
#define RUN_HASH_START 14695981039346656037ull

static inline uint64_t run_hash_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * 1099511628211ull;
}

static inline void bloom_bits(uint64_t h, uint32_t *a, uint32_t *b)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	*a = (uint32_t)h & ((1u << SEED_BLOOM_BITS) - 1);
	*b = (uint32_t)(h >> 32) & ((1u << SEED_BLOOM_BITS) - 1);
}

static bool seed_bloom_has(const Check *ck, uint64_t h)
{
	uint32_t a, b;
	bloom_bits(h, &a, &b);
	return (ck->seed_bloom[a >> 6] >> (a & 63) & 1) && (ck->seed_bloom[b >> 6] >> (b & 63) & 1);
}

static void seed_bloom_add(Check *ck, const char *s, int n)
{
	uint64_t h = RUN_HASH_START;
	for (int i = 0; i < n; i++)
		h = run_hash_step(h, (unsigned char)s[i]);
	uint32_t a, b;
	bloom_bits(h, &a, &b);
	ck->seed_bloom[a >> 6] |= 1ull << (a & 63);
	ck->seed_bloom[b >> 6] |= 1ull << (b & 63);
}

/* 16 bits of hash of a name's first four bytes. */
static unsigned paste_hash4(const char *p)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < 4; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h >> 16;
}

/* Which lengths of P to try for a name: by its first two bytes for P of
 * two or three bytes, by a hash of its first four for longer ones (most
 * names start with "__" or the like, which would not tell them apart). */
static uint64_t paste_lengths(const Check *ck, const char *name, size_t n)
{
	uint64_t lens = ck->paste_lens[(unsigned char)name[0] << 8 | (unsigned char)name[1]] & 0xc;
	if (n >= 4) {
		lens |= ck->paste_lens[65536 + paste_hash4(name)] & ~0xfull;
	}
	return lens;
}

/* Calls fn(ck, sid, arg) for every seed "P##" whose P starts name (a name
 * some macro may make by pasting onto P), longest P first; stops when fn
 * returns false. */
static void for_pasted_seeds(const Check *ck, const char *name, size_t n,
			     bool (*fn)(const Check *, int, void *), void *arg)
{
	if (n < 2 || !ck->paste_lens)
		return;
	uint64_t lens = paste_lengths(ck, name, n);
	char buf[68];
	while (lens) {
		int len = 63 - __builtin_clzll(lens);
		lens &= ~(1ull << len);
		if ((size_t)len > n)
			continue;
		memcpy(buf, name, (size_t)len);
		memcpy(buf + len, "##", 2);
		int sid = find_name(ck, buf, (size_t)len + 2);
		if (sid >= 0 && ck->is_paste_seed[sid] && !fn(ck, sid, arg))
			return;
	}
}

static bool take_first(const Check *ck, int sid, void *arg)
{
	(void)ck;
	*(int *)arg = sid;
	return false;
}

/* The seed of the longest P, -1 for none. */
static int pasted_seed(const Check *ck, const char *name, size_t n)
{
	int sid = -1;
	for_pasted_seeds(ck, name, n, take_first, &sid);
	return sid;
}

/* has_seeds: by name id, how many files have the name as a seed. */
static void index_pasted_seeds(Check *ck, const int *has_seeds)
{
	int nn = ck->nnames;
	ck->paste_lens = xcalloc(2 * 65536, sizeof(uint64_t)); /* see paste_lengths */
	ck->is_paste_seed = xzalloc_now((size_t)nn + 1, 1);
	ck->seed_bloom = xzalloc_now((1u << SEED_BLOOM_BITS) / 64, sizeof(uint64_t));
	for (int id = 0; id < nn; id++) {
		if (!has_seeds[id])
			continue;
		int len = name_len(ck, id);
		const char *t = name_str(ck, id);
		seed_bloom_add(ck, t, len);
		if (len < 4 || len > 65 || t[len - 1] != '#' || t[len - 2] != '#')
			continue;
		ck->is_paste_seed[id] = 1;
		int plen = len - 2;
		if (plen < 4)
			ck->paste_lens[(unsigned char)t[0] << 8 | (unsigned char)t[1]] |= 1ull << plen;
		else
			ck->paste_lens[65536 + paste_hash4(t)] |= 1ull << plen;
	}
}

/* The next block [from, to) of 256 of nfiles items (file ids, or any
 * other work list) for a worker; false when done. */
static bool next_files(int *next, int nfiles, int *from, int *to)
{
	*from = __atomic_fetch_add(next, 256, __ATOMIC_RELAXED);
	*to = *from + 256 < nfiles ? *from + 256 : nfiles;
	return *from < nfiles;
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

/* The parts of file some configurations do not compile (union mode;
 * read in the file's own context), as graph_file_unknown gives them. */
static int unknown_ranges(Check *ck, int file, const uint32_t **rg)
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

static bool in_ranges(const uint32_t *rg, int n, uint32_t line)
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

/* Whether the run needs file's symbols (see Session.scope). */
static bool in_scope(const Session *s, int file)
{
	return !s->scope || (file < s->nscope && s->scope[file]);
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

static void build_index(Check *ck)
{
	FileTable *ft = &ck->s->ft;
	ck->nfiles = ft->nfiles;
	/* every file with facts gets its symbol facts (most already have
	 * them when the graph was built with the index alongside) */
	IntVec all = {0};
	for (int i = 0; i < ft->nfiles; i++)
		if (ft->files[i].facts && !ft->files[i].syms && in_scope(ck->s, i))
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
				ck->provs[ck->prov_off[id]++] = (Prov){f, e->kind, in_ranges(rg, nrg, e->line)};
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

void check_sym_text(const Check *ck, int sym, StrBuf *out)
{
	sb_add(out, name_str(ck, sym), (size_t)name_len(ck, sym));
}

/* ---- one root's graph ---- */

/*
 * The root's own #include lines, in order, label the nodes: lab1[v] is
 * the first line through which v enters the closure, lab2[v] the first
 * other one.  Removing line c makes v available at lab2's line when
 * lab1 is c, and not at all when there is no lab2.  A use at line L is
 * satisfied by a provider available before L; so the order of includes
 * counts, as it does for the compiler.
 */
typedef struct {
	int node;
	int dir;       /* directive index in the root; -1 forced include */
	unsigned line; /* 0 for a forced include */
	bool cond;     /* under an #if of unknown value */
} RootEdge;

#define NEVER 0xffffffffu
#define RK_CERTAIN 0x8000

struct Root {
	TuGraph g;
	int n;
	VEC(RootEdge) redges;
	IntVec lab1, lab2, stack;
	IntVec lab_pairs;    /* label_closure's scratch: a node's pair of labels and
			      * of certain labels together */
	IntVec back;         /* label_closure: edges that close a cycle */
	/* The same over edges that are there in every configuration (union
	 * mode): a removal is safe only if what it takes away still comes
	 * for certain some other way. */
	IntVec cert1, cert2;
	bool c_in_closure;   /* a .c file besides the root: scan all provides */
	uint64_t *inclos;    /* by file id: a bit per file of the closure, so
			      * scanning a name's providers stays in cache */
	IntVec inclos_set;   /* the files whose bits are set */
	/* what the root provides: name id -> kinds (bit set of SymKind, and
	 * RK_CERTAIN when one is outside every #if); open addressing, id -1
	 * empty.  A root provides a few hundred names: a table by name id (4
	 * million) missed the cache on every lookup. */
	struct RootProv { int id; uint16_t kinds; uint32_t first_line; } *rprov;
	int rprov_cap, rprov_alloc;
	uint32_t repoch;
	IntVec prov_nodes;
	IntVec prov_cert;    /* by index in prov_nodes: provides it for certain */
	IntVec effp_off, effp, effp_np; /* check_file: each use's providers */
	IntVec exp_pairs;    /* (node, node that exports it) pairs */
	uint32_t *fmark, fepoch; /* fallout: by file id, == fepoch leaving */
	uint32_t *reach_mark, reach_epoch; /* by file id: reaches reach_of */
	int reach_of;        /* the header whose includers are in reach */
	IntVec reach;        /* files reaching it, breadth first from it */
	int *reach_pos;      /* by file id: index in reach */
	long reach_uses;     /* the uses of those files, summed */
	VEC(UserRef) hits;   /* fallout: (reach index, use index) */
	NameSet lnames;      /* fallout: the names that may leave (small, so
			      * it stays in cache) */
	uint32_t *vmark;     /* fallout: visited marks of meets() */
	uint32_t *cmark, cepoch; /* mark_closure: by file id */
	IntVec queue;
	IntVec seed_scratch; /* collect_seed_names' answer before it is kept */
	uint64_t *cand;      /* add_closure_uses: bit set of candidate needs */
	IntVec cand_words;   /* ... its words that are not zero */
	/* the same by need, for the closure's uses: epoch and slot side by
	 * side, one cache miss a use */
	struct NeedMark { uint32_t epoch; int slot; } *need_mark;
	uint32_t *rneed;     /* by need: == repoch when the root provides it */
	uint16_t *rneed_kinds; /* ... with these kinds */
	uint32_t epoch;
	/* seed_providers, per root: seed name id -> its closure nodes, at
	 * smemo_pool[at] (count, then nodes); open addressing on sid, built
	 * for the root whose epoch is smemo_epoch (build_seed_table) */
	uint64_t *smemo_key;
	int smemo_cap;       /* slots in use for this root (a power of 2) */
	int smemo_alloc;     /* slots allocated */
	uint32_t smemo_epoch;
	IntVec smemo_pool;
};

static void ivec_fill(IntVec *v, int n, int value)
{
	vec_grow(v, n);
	v->n = n;
	if (!n)
		return;
	if (value == 0 || value == -1)
		memset(v->v, value, (size_t)n * sizeof(int));
	else
		for (int i = 0; i < n; i++)
			v->v[i] = value;
}

static unsigned avail(const Root *r, int v)
{
	return r->lab1.v[v] >= 0 ? r->redges.v[r->lab1.v[v]].line : NEVER;
}

/* When v becomes available if root line c is removed. */
static unsigned avail_without(const Root *r, int v, int c)
{
	if (r->lab1.v[v] != c)
		return avail(r, v);
	return r->lab2.v[v] >= 0 ? r->redges.v[r->lab2.v[v]].line : NEVER;
}

static int cmp_redge(const void *a, const void *b)
{
	const RootEdge *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->dir - y->dir;
}

/* Merges label pair a into b, which keeps the two smallest distinct root
 * lines of both (-1, read unsigned, is the largest: none).  Returns
 * whether b changed. */
static inline bool merge_labels(const int *a, int *b)
{
	unsigned a1 = (unsigned)a[0], a2 = (unsigned)a[1], b1 = (unsigned)b[0], b2 = (unsigned)b[1];
	if (a1 >= b2) /* nothing of a below b's second (or a empty) */
		return false;
	unsigned n1, n2;
	if (a1 == b1)
		n1 = a1, n2 = a2 < b2 ? a2 : b2;
	else if (a1 < b1)
		n1 = a1, n2 = a2 < b1 ? a2 : b1;
	else
		n1 = b1, n2 = a1;
	if (n1 == b1 && n2 == b2)
		return false;
	b[0] = (int)n1;
	b[1] = (int)n2;
	return true;
}

/* Pushes the pairs of lab from the nodes on r->stack to their successors
 * (cond: skipping conditional edges) until nothing changes. */
static void spread_labels(Root *r, int (*lab)[2], const uint8_t *cond)
{
	const int *off = r->g.succ_off.v, *succ = r->g.succ.v;
	while (r->stack.n) {
		int v = r->stack.v[--r->stack.n];
		for (int k = off[v]; k < off[v + 1]; k++) {
			int w = succ[k];
			if (w > 0 && !(cond && cond[k]) && merge_labels(lab[v], lab[w]))
				vec_push(&r->stack, w);
		}
	}
}

/*
 * lab1[v], lab2[v]: the first two root lines (in line order) whose
 * includes reach v (not through the root); cert1/cert2 the same over the
 * edges that are not under an #if of unknown value: the lines that bring
 * v for certain.  A node's pair is the two smallest of its predecessors'
 * pairs, so one sweep in reverse postorder settles every node that no
 * cycle reaches; the few edges that close a cycle are pushed on after it.
 */
static void label_closure(Root *r)
{
	const TuGraph *g = &r->g;
	int n = r->n, np = g->post.n;
	const int *off = g->succ_off.v, *succ = g->succ.v, *post = g->post.v;
	const uint8_t *cond = g->succ_cond.v;
	vec_grow(&r->lab_pairs, 4 * n + 4);
	int (*lab)[2] = (int (*)[2])(void *)r->lab_pairs.v, (*cert)[2] = lab + n;
	memset(lab, -1, (size_t)n * 2 * sizeof(*lab));
	for (int e = 0; e < r->redges.n; e++) {
		int line[2] = {e, -1}, v = r->redges.v[e].node;
		merge_labels(line, lab[v]);
		if (!r->redges.v[e].cond)
			merge_labels(line, cert[v]);
	}
	/* po: postorder numbers, in the stack's room */
	vec_grow(&r->stack, n);
	int *po = r->stack.v;
	for (int v = 0; v < n; v++)
		po[v] = np; /* not walked: never a target of a forward edge */
	for (int k = 0; k < np; k++)
		po[post[k]] = k;
	r->back.n = 0;
	for (int k = np - 1; k >= 0; k--) {
		int v = post[k];
		if (v == 0)
			continue;
		for (int j = off[v]; j < off[v + 1]; j++) {
			int w = succ[j];
			if (w <= 0)
				continue;
			if (po[w] >= k) { /* closes a cycle: w was swept already */
				vec_push(&r->back, j);
				vec_push(&r->back, v);
				continue;
			}
			merge_labels(lab[v], lab[w]);
			if (!cond[j])
				merge_labels(cert[v], cert[w]);
		}
	}
	for (int pass = 0; pass < 2 && r->back.n; pass++) {
		int (*l)[2] = pass ? cert : lab;
		const uint8_t *c = pass ? cond : NULL;
		r->stack.n = 0;
		for (int i = 0; i < r->back.n; i += 2) {
			int j = r->back.v[i], v = r->back.v[i + 1], w = succ[j];
			if (!(c && c[j]) && merge_labels(l[v], l[w]))
				vec_push(&r->stack, w);
		}
		spread_labels(r, l, c);
	}
	IntVec *out[4] = {&r->lab1, &r->lab2, &r->cert1, &r->cert2};
	for (int i = 0; i < 4; i++) {
		vec_grow(out[i], n);
		out[i]->n = n;
	}
	for (int v = 0; v < n; v++) {
		r->lab1.v[v] = lab[v][0];
		r->lab2.v[v] = lab[v][1];
		r->cert1.v[v] = cert[v][0];
		r->cert2.v[v] = cert[v][1];
	}
}

static void label(Root *r, const Facts *ff)
{
	TuGraph *g = &r->g;
	int n = g->nodes.n;
	r->n = n;
	r->redges.n = 0;
	for (int j = n ? g->succ_off.v[0] : 0; n && j < g->succ_off.v[1]; j++) {
		int to = g->succ.v[j], dir = g->succ_dir.v[j];
		if (to <= 0)
			continue;
		RootEdge re = {to, dir, dir >= 0 && ff ? facts_dirs(ff)[dir].line : 0, g->succ_cond.v[j]};
		vec_push(&r->redges, re);
	}
	if (r->redges.n > 1)
		qsort(r->redges.v, (size_t)r->redges.n, sizeof(RootEdge), cmp_redge);
	label_closure(r);
}

static void root_free(Root *r)
{
	tu_free(&r->g);
	vec_free(&r->redges);
	vec_free(&r->lab1);
	vec_free(&r->lab2);
	vec_free(&r->lab_pairs);
	vec_free(&r->back);
	vec_free(&r->cert1);
	vec_free(&r->cert2);
	vec_free(&r->stack);
	vec_free(&r->prov_nodes);
	vec_free(&r->prov_cert);
	vec_free(&r->effp_off);
	vec_free(&r->effp);
	vec_free(&r->effp_np);
	vec_free(&r->exp_pairs);
	free(r->fmark);
	free(r->inclos);
	vec_free(&r->inclos_set);
	free(r->reach_mark);
	free(r->reach_pos);
	vec_free(&r->reach);
	vec_free(&r->hits);
	vec_free(&r->lnames.slots);
	free(r->rprov);
	free(r->vmark);
	free(r->cmark);
	vec_free(&r->queue);
	vec_free(&r->seed_scratch);
	free(r->cand);
	vec_free(&r->cand_words);
	free(r->smemo_key);
	vec_free(&r->smemo_pool);
	free(r->need_mark);
	free(r->rneed);
	free(r->rneed_kinds);
}

/* The context a file is read in: its own when the session knew it
 * before preparing the graph (files of the tree), else the fallback. */
static int ctx_of(Check *ck, int file)
{
	return ck->ctx_of_file[file];
}

/* The slot of name id in the root's provides: its entry, or the empty
 * one where it would go. */
static inline struct RootProv *rprov_slot(const Root *r, int id)
{
	unsigned mask = (unsigned)r->rprov_cap - 1, h = ((unsigned)id * 2654435761u) & mask;
	while (r->rprov[h].id >= 0 && r->rprov[h].id != id)
		h = (h + 1) & mask;
	return &r->rprov[h];
}

/* The kinds the root provides name id with (0: it does not). */
static inline unsigned root_kinds(const Root *r, int id)
{
	const struct RootProv *rp = rprov_slot(r, id);
	return rp->id == id ? rp->kinds : 0;
}

/* The first line at which the root provides the name (any kind); 0 when
 * it does not. */
static inline unsigned root_first_line(const Root *r, int id)
{
	const struct RootProv *rp = rprov_slot(r, id);
	return rp->id == id ? rp->first_line : 0;
}

/* labels: the dominator-like labels of label(), which finding the
 * file's own removable includes needs and its unresolved uses do not. */
static void load_root(Check *ck, Root *r, int file, bool labels)
{
	Unit u = {file, ctx_of(ck, file)};
	tu_reset(&r->g, ck->s->ft.nfiles);
	/* as in exact_walk_all: a header's own walk guesses its command */
	diag_muted = ck->s->pp && ck->s->compdb && !session_is_unit(ck->s, file);
	if (ck->any_export) {
		/* exported includes are read off the edges in walk order */
		session_tu(ck->s, &u, &r->g);
		tu_build_csr(&r->g); /* labels sweep in postorder */
	} else {
		/* labels need each successor's #include line and condition;
		 * unresolved uses only the closure */
		r->g.want_slots = labels;
		session_tu_csr(ck->s, &u, &r->g);
		if (!labels) {
			r->g.edges.n = 0;
			r->g.missing.n = 0;
		}
	}
	diag_muted = false;
	if (labels)
		label(r, ck->s->ft.files[file].facts);
	else
		r->n = r->g.nodes.n;
	if (!r->inclos)
		r->inclos = xcalloc((size_t)ck->nfiles / 64 + 1, sizeof(uint64_t));
	for (int i = 0; i < r->inclos_set.n; i++)
		r->inclos[r->inclos_set.v[i] >> 6] = 0;
	r->inclos_set.n = 0;
	for (int v = 0; v < r->g.nodes.n; v++) {
		int f = r->g.nodes.v[v];
		if (f < ck->nfiles) {
			r->inclos[f >> 6] |= 1ull << (f & 63);
			vec_push(&r->inclos_set, f);
		}
	}
	r->c_in_closure = false;
	for (int v = 1; v < r->g.nodes.n && !r->c_in_closure; v++)
		r->c_in_closure = r->g.nodes.v[v] < ck->nfiles && ck->is_c[r->g.nodes.v[v]];
	/* what the root provides itself */
	r->repoch++;
	const Symbols *sy = ck->s->ft.files[file].syms;
	const uint32_t *rg;
	int nrg = sy ? unknown_ranges(ck, file, &rg) : 0;
	int nprov = sy ? ck->fprov_off[file + 1] - ck->fprov_off[file] : 0;
	r->rprov_cap = 16;
	while (r->rprov_cap < 2 * nprov)
		r->rprov_cap *= 2;
	if (r->rprov_cap > r->rprov_alloc) {
		free(r->rprov);
		r->rprov = xmalloc((size_t)r->rprov_cap * sizeof(*r->rprov));
		r->rprov_alloc = r->rprov_cap;
	}
	for (int i = 0; i < r->rprov_cap; i++)
		r->rprov[i].id = -1;
	for (int k = ck->fprov_off[file]; sy && k < ck->fprov_off[file + 1]; k++) {
		int id = ck->fprov[k];
		if (id < 0)
			continue; /* a name no file uses: never looked up */
		struct RootProv *rp = rprov_slot(r, id);
		const SymEntry *e = &sym_provides(sy)[k - ck->fprov_off[file]];
		if (rp->id < 0)
			*rp = (struct RootProv){id, 0, e->line};
		rp->kinds |= (uint16_t)(1u << e->kind);
		if (e->line < rp->first_line)
			rp->first_line = e->line;
		if (!in_ranges(rg, nrg, e->line))
			rp->kinds |= RK_CERTAIN;
		int q = ck->need_of_name ? ck->need_of_name[id] : -1;
		if (q >= 0) {
			if (!r->rneed) {
				r->rneed = xzalloc_now((size_t)ck->nneeds + 1, sizeof(uint32_t));
				r->rneed_kinds = xzalloc_now((size_t)ck->nneeds + 1, sizeof(uint16_t));
			}
			r->rneed[q] = r->repoch;
			r->rneed_kinds[q] = rp->kinds;
		}
	}
	/* exported includes: the exporter provides what they provide */
	r->exp_pairs.n = 0;
	if (!ck->any_export)
		return;
	for (int k = 0; k < r->g.edges.n; k++) {
		const TuEdge *e = &r->g.edges.v[k];
		int from = r->g.nodes.v[e->from];
		const Facts *ff = ck->s->ft.files[from].facts;
		if (e->dir < 0 || e->to < 0 || !ff)
			continue;
		if (exported_line(syms_of(ck, from), facts_dirs(ff)[e->dir].line)) {
			vec_push(&r->exp_pairs, e->to);
			vec_push(&r->exp_pairs, e->from);
		}
	}
}

/* Adds to r->prov_nodes the nodes that export one of them (through
 * chains of exports).  -1 when the root is one. */
static int add_exporters(Root *r)
{
	for (int i = 0; i < r->prov_nodes.n; i++)
		for (int k = 0; k + 1 < r->exp_pairs.n; k += 2)
			if (r->exp_pairs.v[k] == r->prov_nodes.v[i]) {
				if (r->exp_pairs.v[k + 1] == 0)
					return -1;
				add_unique(&r->prov_nodes, r->exp_pairs.v[k + 1]);
			}
	return r->prov_nodes.n;
}

/* Whether a provide of this kind satisfies a use with these flags. */
static bool satisfies(int kind, int flags)
{
	if (kind == SK_SEED)
		return false;
	if (flags & UF_TAG)
		return (flags & UF_COMPLETE) ? kind == SK_TAG_DEF : true;
	return true;
}

static bool kinds_satisfy(unsigned kinds, int flags)
{
	/* #ifndef X / #define X fallback: a definition of its own under an #if
	 * does not stand in for the one the test looks for */
	if ((flags & UF_COND) && !(kinds & RK_CERTAIN))
		return false;
	for (int kind = 0; kind < SK_NKINDS; kind++)
		if ((kinds >> kind & 1) && satisfies(kind, flags))
			return true;
	return false;
}

static bool root_satisfies(const Root *r, int id, int flags)
{
	unsigned kinds = root_kinds(r, id);
	if (!kinds || (flags & UF_PROTO))
		return false;
	return kinds_satisfy(kinds, flags);
}

/* The node of file in the root's closure, -1 when it is not there. */
static inline int closure_node(const Root *r, int file)
{
	if (!(r->inclos[file >> 6] >> (file & 63) & 1))
		return -1;
	return tu_find(&r->g, file);
}

/* Where the provides worth looking at for this root end. */
static int prov_end(const Check *ck, const Root *r, int id)
{
	return r->c_in_closure ? ck->prov_off[id + 1] : ck->prov_hdr_end[id];
}

/* Nodes of the closure (not the root) that provide the name for this use,
 * best kind first.  Returns -1 when the root provides it itself, else the
 * count in r->prov_nodes. */
static int providers(Check *ck, Root *r, int id, int flags)
{
	r->prov_nodes.n = 0;
	if (root_satisfies(r, id, flags))
		return -1;
	int best = SK_NKINDS;
	for (int k = ck->prov_off[id], end = prov_end(ck, r, id); k < end; k++) {
		const Prov *p = &ck->provs[k];
		if (!satisfies(p->kind, flags))
			continue;
		int node = closure_node(r, p->file);
		if (node < 0)
			continue;
		if (node == 0)
			return -1;
		if (p->kind < best) {
			best = p->kind;
			r->prov_nodes.n = 0;
		}
		if (p->kind == best)
			vec_push(&r->prov_nodes, node);
	}
	return r->exp_pairs.n ? add_exporters(r) : r->prov_nodes.n;
}

typedef struct {
	IntVec *out;
	int at;
} PoolAt;

static bool pool_seed(const Check *ck, int sid, void *arg)
{
	(void)ck;
	PoolAt *pa = arg;
	vec_push(pa->out, sid);
	pa->out->v[pa->at]++;
	return true;
}

/* Appends to out a count, then the names whose seeds could make name id:
 * its '_'-separated runs that some file has as a seed, and the seeds
 * "P##" of the starts P a macro pastes onto (out##bwl). */
static void collect_seed_names(const Check *ck, int id, IntVec *out)
{
	int at = out->n;
	vec_push(out, 0);
	const char *name = name_str(ck, id);
	int len = name_len(ck, id);
	if (!strncmp(name, "struct ", 7))
		return;
	int starts[64], ns = 0;
	if (len <= 200)
		for (int i = 0; i < len && ns < 63; i++)
			if (i == 0 || (name[i - 1] == '_' && name[i] != '_'))
				starts[ns++] = i;
	for (int a = 0; a < ns; a++) {
		uint64_t h = RUN_HASH_START;
		for (int e = starts[a] + 1; e <= len; e++) {
			h = run_hash_step(h, (unsigned char)name[e - 1]);
			if (e < len && name[e] != '_')
				continue;
			if (!seed_bloom_has(ck, h))
				continue; /* no file has this run as a seed */
			int sid = find_name(ck, name + starts[a], (size_t)(e - starts[a]));
			if (sid < 0 || sid == id)
				continue;
			if (ck->seed_off[sid + 1] > ck->seed_off[sid]) {
				vec_push(out, sid);
				out->v[at]++;
			}
		}
	}
	PoolAt pa = {out, at};
	for_pasted_seeds(ck, name, (size_t)len, pool_seed, &pa);
}

static const int no_seed_names[1] = {0};

/* collect_seed_names, memoized for all threads: the same unprovided names
 * come back in root after root, whichever thread reads them.  A thread
 * that finds no answer yet computes it and offers it; when another was
 * first, its own copy goes.  The closure's uses have theirs in
 * ck->need_seed_off instead. */
static const int *seed_names(Check *ck, Root *r, int id, int *n)
{
	const int *list = __atomic_load_n(&ck->seed_lists[id], __ATOMIC_ACQUIRE);
	if (!list) {
		r->seed_scratch.n = 0;
		collect_seed_names(ck, id, &r->seed_scratch);
		int *mine = NULL;
		if (r->seed_scratch.v[0]) {
			mine = xmalloc((size_t)r->seed_scratch.n * sizeof(int));
			memcpy(mine, r->seed_scratch.v, (size_t)r->seed_scratch.n * sizeof(int));
		}
		list = mine ? mine : no_seed_names;
		const int *first = NULL;
		if (!__atomic_compare_exchange_n(&ck->seed_lists[id], &first, list, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			free(mine);
			list = first;
		}
	}
	*n = list[0];
	return list + 1;
}

/* The slot of seed sid in the root's seed table (empty when absent). */
static unsigned seed_slot(const Root *r, int sid)
{
	unsigned mask = (unsigned)r->smemo_cap - 1, h = ((unsigned)sid * 2654435761u) & mask;
	while (r->smemo_key[h] != UINT64_MAX && (int)(r->smemo_key[h] >> 32) != sid)
		h = (h + 1) & mask;
	return h;
}

/* Every seed of the root's closure with its nodes, taken from the
 * closure's side: u32 is a seed of thousands of trace headers, and a
 * closure holds few of them.  A slot holds sid << 32 | count while
 * counting, then sid << 32 | offset of (count, nodes) in smemo_pool. */
static void build_seed_table(Check *ck, Root *r)
{
	int npairs = 0;
	for (int v = 1; v < r->n; v++) {
		int f = r->g.nodes.v[v];
		if (f < ck->nfiles)
			npairs += ck->fseed_off[f + 1] - ck->fseed_off[f];
	}
	int cap = 1024;
	while (cap < 2 * npairs + 2)
		cap *= 2;
	if (cap > r->smemo_alloc) {
		free(r->smemo_key);
		r->smemo_key = xmalloc((size_t)cap * sizeof(uint64_t));
		r->smemo_alloc = cap;
	}
	/* sized for this closure: the largest one seen would make every
	 * later root clear and scan its slots */
	r->smemo_cap = cap;
	memset(r->smemo_key, 0xff, (size_t)r->smemo_cap * sizeof(uint64_t));
	for (int v = 1; v < r->n; v++) {
		int f = r->g.nodes.v[v];
		for (int k = f < ck->nfiles ? ck->fseed_off[f] : 0; f < ck->nfiles && k < ck->fseed_off[f + 1]; k++) {
			unsigned h = seed_slot(r, ck->fseed[k]);
			uint32_t c = r->smemo_key[h] == UINT64_MAX ? 0 : (uint32_t)r->smemo_key[h];
			r->smemo_key[h] = (uint64_t)(uint32_t)ck->fseed[k] << 32 | (c + 1);
		}
	}
	r->smemo_pool.n = 0;
	for (int h = 0; h < r->smemo_cap; h++) {
		if (r->smemo_key[h] == UINT64_MAX)
			continue;
		int count = (int)(uint32_t)r->smemo_key[h], at = r->smemo_pool.n;
		vec_grow(&r->smemo_pool, at + 1 + count);
		r->smemo_pool.v[at] = 0;
		r->smemo_pool.n = at + 1 + count;
		r->smemo_key[h] = (r->smemo_key[h] & ~(uint64_t)UINT32_MAX) | (uint32_t)at;
	}
	for (int v = 1; v < r->n; v++) {
		int f = r->g.nodes.v[v];
		for (int k = f < ck->nfiles ? ck->fseed_off[f] : 0; f < ck->nfiles && k < ck->fseed_off[f + 1]; k++) {
			int at = (int)(uint32_t)r->smemo_key[seed_slot(r, ck->fseed[k])];
			r->smemo_pool.v[at + 1 + r->smemo_pool.v[at]++] = v;
		}
	}
}

/* The closure nodes that have sid as a seed. */
static const int *seed_nodes(Check *ck, Root *r, int sid, int *n)
{
	if (r->smemo_epoch != r->epoch) {
		r->smemo_epoch = r->epoch;
		build_seed_table(ck, r);
	}
	uint64_t key = r->smemo_key[seed_slot(r, sid)];
	if (key == UINT64_MAX) {
		*n = 0;
		return NULL;
	}
	int at = (int)(uint32_t)key;
	*n = r->smemo_pool.v[at];
	return &r->smemo_pool.v[at + 1];
}

/*
 * A name no file in the closure provides may be made by a macro: if one of
 * its '_'-separated runs ("sched_switch" in "trace_sched_switch_enabled")
 * is a seed of a closure file, that file may be its home.  Fills
 * r->prov_nodes with such files (for the seed names sids); returns their
 * count.
 */
static int seed_providers_of(Check *ck, Root *r, const int *sids, int ns)
{
	r->prov_nodes.n = 0;
	for (int i = 0; i < ns; i++) {
		int nn;
		const int *nodes = seed_nodes(ck, r, sids[i], &nn);
		for (int j = 0; j < nn; j++)
			add_unique(&r->prov_nodes, nodes[j]);
	}
	return r->prov_nodes.n;
}

static int seed_providers(Check *ck, Root *r, int id)
{
	int ns;
	const int *sids = seed_names(ck, r, id, &ns);
	return seed_providers_of(ck, r, sids, ns);
}

/* The same for a closure use, whose seed names were found once for all. */
static int need_seed_providers(Check *ck, Root *r, int need)
{
	int q = need >> 1, from = ck->need_seed_off[q];
	return seed_providers_of(ck, r, &ck->need_seed[from], ck->need_seed_off[q + 1] - from);
}

/* Adds node to r->prov_nodes once; certain when some provide of it is
 * outside every #if of unknown value. */
static void add_provider_node(Root *r, int node, bool certain)
{
	int at = 0;
	while (at < r->prov_nodes.n && r->prov_nodes.v[at] != node)
		at++;
	if (at == r->prov_nodes.n) {
		vec_push(&r->prov_nodes, node);
		vec_push(&r->prov_cert, 0);
	}
	if (certain)
		r->prov_cert.v[at] = 1;
}

/* The providers found, with the nodes that export them: an exporter
 * provides as certainly as what it exports.  Their count. */
static int with_exporters(Root *r)
{
	if (!r->exp_pairs.n)
		return r->prov_nodes.n;
	int n0 = r->prov_nodes.n;
	int np = add_exporters(r);
	for (int i = n0; i < r->prov_nodes.n; i++)
		vec_push(&r->prov_cert, 1);
	return np;
}

/* Every node (not the root) whose provide satisfies the use, in
 * r->prov_nodes; -1 when the root provides it itself. */
static int all_providers(Check *ck, Root *r, int id, int flags)
{
	r->prov_nodes.n = 0;
	r->prov_cert.n = 0;
	/* the root's own under an #if of unknown value: the headers that
	 * provide it too are needed where that branch is not taken (ring_buffer.c
	 * defines sched_clock_stable() under #ifndef
	 * CONFIG_HAVE_UNSTABLE_SCHED_CLOCK; <linux/sched/clock.h> declares it
	 * otherwise) */
	bool own_cond = false;
	if (root_satisfies(r, id, flags)) {
		if (root_kinds(r, id) & RK_CERTAIN)
			return -1;
		own_cond = true;
	}
	for (int k = ck->prov_off[id], end = prov_end(ck, r, id); k < end; k++) {
		const Prov *p = &ck->provs[k];
		if ((flags & UF_PROTO) ? p->kind != SK_FUNC_DECL : !satisfies(p->kind, flags))
			continue;
		int node = closure_node(r, p->file);
		if (node < 0 || (node == 0 && ((flags & UF_PROTO) || own_cond)))
			continue;
		if (node == 0)
			return -1;
		add_provider_node(r, node, !p->cond);
	}
	if (own_cond && !r->prov_nodes.n)
		return -1;
	return with_exporters(r);
}

/* all_providers for a closure use, from its need's copied-out list:
 * the same answer, without touching the name-indexed tables. */
static int need_providers(Check *ck, Root *r, int need)
{
	r->prov_nodes.n = 0;
	r->prov_cert.n = 0;
	int q = need >> 1, flags = need & 1 ? UF_TAG | UF_COMPLETE : 0;
	bool own_cond = false; /* as all_providers */
	if (r->rneed && r->rneed[q] == r->repoch && kinds_satisfy(r->rneed_kinds[q], flags)) {
		if (r->rneed_kinds[q] & RK_CERTAIN)
			return -1;
		own_cond = true;
	}
	int end = r->c_in_closure ? ck->np_off[need + 1] : ck->np_hdr_end[need];
	for (int k = ck->np_off[need]; k < end; k++) {
		int node = closure_node(r, ck->np[k] >> 1);
		if (node < 0 || (node == 0 && own_cond))
			continue;
		if (node == 0)
			return -1;
		add_provider_node(r, node, !(ck->np[k] & 1));
	}
	if (own_cond && !r->prov_nodes.n)
		return -1;
	return with_exporters(r);
}

/* ---- unresolved uses of headers ---- */

/* "struct S *" outside a parameter list needs nothing in scope. */
static bool needs_nothing(int flags)
{
	return (flags & UF_TAG) && !(flags & (UF_COMPLETE | UF_DECLARE));
}

static void compute_unresolved(Check *ck, Root *r, int file)
{
	IntVec *out = &ck->unresolved[file];
	out->n = 0;
	r->epoch++; /* a new root for seed_nodes */
	for (int k = 0; k < ck->uses[file].n; k++) {
		UseRef *u = &ck->uses[file].v[k];
		if (needs_nothing(u->flags) || (u->flags & UF_PROTO))
			continue; /* a header's own function is its own business */
		if (ck->is_paste_seed[u->id]) {
			/* a name made by pasting (get_foo from get_##): the header's
			 * own business when it or its closure has the macro that
			 * makes it, else its includer's to bring */
			int n;
			bool own = root_kinds(r, u->id) >> SK_SEED & 1;
			if (!own && (seed_nodes(ck, r, u->id, &n), n == 0))
				vec_push(out, u->id << 1);
			continue;
		}
		int np = providers(ck, r, u->id, u->flags);
		if (np == 0)
			vec_push(out, u->id << 1 | ((u->flags & UF_COMPLETE) != 0));
	}
	ck->has_unresolved[file] = true;
}

/* ---- findings of one file ---- */

static void finding_init(Finding *f, int file, int kind)
{
	memset(f, 0, sizeof(*f));
	f->file = file;
	f->kind = kind;
	f->dir = -1;
	f->target = -1;
	f->sym = -1;
}

/* The chain from the root through its include line `start` (a root edge
 * index) to node, as (file, line of the #include) pairs. */
static void chain_to(Check *ck, Root *r, int start, int node, IntVec *via)
{
	TuGraph *g = &r->g;
	IntVec parent = {0}, slot_of = {0}, queue = {0};
	ivec_fill(&parent, r->n, -1);
	ivec_fill(&slot_of, r->n, -1);
	int first = r->redges.v[start].node;
	parent.v[0] = 0;
	parent.v[first] = 0;
	vec_push(&queue, first);
	for (int qi = 0; qi < queue.n && parent.v[node] < 0; qi++) {
		int v = queue.v[qi];
		for (int j = g->succ_off.v[v]; j < g->succ_off.v[v + 1]; j++) {
			int w = g->succ.v[j];
			if (w < 0 || parent.v[w] >= 0)
				continue;
			parent.v[w] = v;
			slot_of.v[w] = j;
			vec_push(&queue, w);
		}
	}
	const Facts *rf = ck->s->ft.files[g->nodes.v[0]].facts;
	int rdir = r->redges.v[start].dir;
	vec_push(via, g->nodes.v[0]);
	vec_push(via, rdir >= 0 && rf ? (int)facts_dirs(rf)[rdir].line : 0);
	IntVec rev = {0};
	for (int v = node; v != first && v > 0 && parent.v[v] >= 0; v = parent.v[v])
		vec_push(&rev, v);
	if (node != first)
		vec_push(&rev, first);
	for (int i = rev.n - 1; i >= 0; i--) {
		int v = rev.v[i];
		vec_push(via, g->nodes.v[v]);
		/* the line of v that includes the next step */
		int j = i > 0 ? slot_of.v[rev.v[i - 1]] : -1;
		unsigned line = 0;
		if (j >= 0) {
			const Facts *ff = ck->s->ft.files[g->nodes.v[v]].facts;
			int dir = g->succ_dir.v[j];
			line = dir >= 0 && ff ? facts_dirs(ff)[dir].line : 0;
		}
		vec_push(via, (int)line);
	}
	if (node == first && !rev.n) {
		vec_push(via, g->nodes.v[node]);
		vec_push(via, 0);
	}
	vec_free(&parent);
	vec_free(&slot_of);
	vec_free(&queue);
	vec_free(&rev);
}

static void add_unique(IntVec *v, int x)
{
	for (int i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return;
	vec_push(v, x);
}

static void build_rev(Check *ck)
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

/* The inverse of the unresolved lists: for a name, the headers that rely
 * on their includers for it. */
static void build_needers(Check *ck)
{
	IntVec name = {0}, header = {0};
	for (int f = 0; f < ck->nfiles; f++)
		for (int k = 0; k < ck->unresolved[f].n; k++) {
			vec_push(&name, ck->unresolved[f].v[k] >> 1);
			vec_push(&header, f);
		}
	csr_build(ck->nnames, name.v, header.v, name.n, &ck->need_off, &ck->need);
	vec_free(&name);
	vec_free(&header);
}

enum { NEED_CHUNK = 4096 };

typedef struct {
	Check *ck;
	int next;      /* next chunk of NEED_CHUNK needs */
	IntVec *pool;  /* by chunk: per need a count, then names */
} NeedSeedJob;

static void *need_seed_worker(void *arg)
{
	NeedSeedJob *job = arg;
	int nneeds = job->ck->nneeds;
	for (;;) {
		int c = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
		if (c * NEED_CHUNK >= nneeds)
			return NULL;
		for (int q = c * NEED_CHUNK; q < nneeds && q < (c + 1) * NEED_CHUNK; q++)
			collect_seed_names(job->ck, job->ck->need_name[q], &job->pool[c]);
	}
}

/* The compact form of the unresolved lists (the Check fields after
 * need_off). */
static void index_needs(Check *ck)
{
	int nnames = ck->nnames;
	ck->need_of_name = xmalloc(((size_t)nnames + 1) * sizeof(int));
	memset(ck->need_of_name, -1, ((size_t)nnames + 1) * sizeof(int));
	IntVec names = {0};
	for (int id = 0; id < nnames; id++)
		if (ck->need_off[id + 1] > ck->need_off[id]) {
			ck->need_of_name[id] = names.n;
			vec_push(&names, id);
		}
	ck->nneeds = names.n;
	ck->need_name = names.v;
	ck->cu_off = xcalloc((size_t)ck->nfiles + 1, sizeof(int));
	for (int f = 0; f < ck->nfiles; f++)
		ck->cu_off[f + 1] = ck->cu_off[f] + ck->unresolved[f].n;
	ck->cu = xmalloc(((size_t)ck->cu_off[ck->nfiles] + 1) * sizeof(int));
	for (int f = 0, w = 0; f < ck->nfiles; f++)
		for (int k = 0; k < ck->unresolved[f].n; k++) {
			int x = ck->unresolved[f].v[k];
			ck->cu[w++] = ck->need_of_name[x >> 1] << 1 | (x & 1);
		}
	int nspans = 2 * ck->nneeds;
	ck->np_off = xmalloc(((size_t)nspans + 1) * sizeof(int));
	ck->np_hdr_end = xmalloc(((size_t)nspans + 1) * sizeof(int));
	IntVec np = {0};
	for (int span = 0; span < nspans; span++) {
		int id = ck->need_name[span >> 1];
		int flags = span & 1 ? UF_TAG | UF_COMPLETE : 0;
		ck->np_off[span] = np.n;
		ck->np_hdr_end[span] = -1;
		for (int k = ck->prov_off[id]; k < ck->prov_off[id + 1]; k++) {
			if (k == ck->prov_hdr_end[id])
				ck->np_hdr_end[span] = np.n;
			const Prov *p = &ck->provs[k];
			if (satisfies(p->kind, flags))
				vec_push(&np, p->file << 1 | p->cond);
		}
		if (ck->np_hdr_end[span] < 0)
			ck->np_hdr_end[span] = np.n;
	}
	ck->np_off[nspans] = np.n;
	ck->np = np.v;
	/* each need's seed names, in parallel (intern_find only reads) */
	int nchunks = ck->nneeds / NEED_CHUNK + 1;
	NeedSeedJob job = {.ck = ck, .pool = xcalloc((size_t)nchunks, sizeof(IntVec))};
	run_threads(need_seed_worker, &job, ck->s->opt->jobs);
	IntVec all = {0};
	ck->need_seed_off = xcalloc((size_t)ck->nneeds + 1, sizeof(int));
	for (int c = 0, q = 0; c < nchunks; c++) {
		for (int at = 0; at < job.pool[c].n; q++) {
			int n = job.pool[c].v[at++];
			for (int i = 0; i < n; i++)
				vec_push(&all, job.pool[c].v[at++]);
			ck->need_seed_off[q + 1] = all.n;
		}
		vec_free(&job.pool[c]);
	}
	free(job.pool);
	if (!all.v)
		vec_grow(&all, 1);
	ck->need_seed = all.v;
	/* the needs each seed name may make */
	IntVec sk = {0}, sq = {0};
	for (int q = 0; q < ck->nneeds; q++)
		for (int k = ck->need_seed_off[q]; k < ck->need_seed_off[q + 1]; k++) {
			vec_push(&sk, ck->need_seed[k]);
			vec_push(&sq, q);
		}
	csr_build(nnames, sk.v, sq.v, sk.n, &ck->seed_need_off, &ck->seed_need);
	vec_free(&sk);
	vec_free(&sq);
	/* the needs each file provides a name of */
	ck->fneed_off = xcalloc((size_t)ck->nfiles + 1, sizeof(int));
	IntVec fneed = {0};
	for (int f = 0; f < ck->nfiles; f++) {
		for (int k = ck->fprov_off[f]; k < ck->fprov_off[f + 1]; k++)
			if (ck->fprov[k] >= 0 && ck->need_of_name[ck->fprov[k]] >= 0)
				vec_push(&fneed, ck->need_of_name[ck->fprov[k]]);
		ck->fneed_off[f + 1] = fneed.n;
	}
	if (!fneed.v)
		vec_grow(&fneed, 1);
	ck->fneed = fneed.v;
}

/* The seeds by file, for the roots' seed tables. */
static void index_file_seeds(Check *ck)
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

/* A header, or a .c file some other file includes: what it leaves
 * unresolved is its includers' to provide, and its findings have
 * fallout. */
static bool is_included(Check *ck, int file)
{
	const char *k = fs_keystr(&ck->s->ft, ck->s->ft.files[file].key);
	return !ends_with(k, ".c") || ck->rev_off[file + 1] > ck->rev_off[file];
}

/*
 * A header's finding removes the files `leaving` from its closure.  Every
 * file that reaches the header and uses a name whose only providers it
 * could see are among them must include a provider itself.
 */
/* What a fallout file should include to get back a name that leaves
 * with root line c: the provider, when it comes for certain through c
 * (and provides it in every configuration); else what line c included,
 * which brings every configuration's provider. */
static int fallout_home(Root *r, int c, int best_prov, bool cond)
{
	int node = tu_find(&r->g, best_prov);
	if (!cond && node > 0 && (r->cert1.v[node] == c || r->cert2.v[node] == c))
		return best_prov;
	return r->g.nodes.v[r->redges.v[c].node];
}

/* Whether header h meets the finding's header in some TU: some file that
 * reaches h also reaches the header (in r->reach, not leaving).  A bounded search;
 * past the bound, assume it does. */
static bool meets(Check *ck, Root *r, int h, uint32_t e)
{
	IntVec *q = &r->queue;
	q->n = 0;
	vec_push(q, h);
	r->vmark[h] = e;
	for (int qi = 0; qi < q->n; qi++) {
		if (qi > 4000)
			return true;
		int f = q->v[qi];
		if (r->reach_mark[f] == r->reach_epoch && r->fmark[f] != e)
			return true;
		for (int k = ck->rev_off[f]; k < ck->rev_off[f + 1]; k++) {
			int z = ck->rev[k];
			if (r->vmark[z] != e) {
				r->vmark[z] = e;
				vec_push(q, z);
			}
		}
	}
	return false;
}

/* fd's fallout entry for file y among those from index `from` on; a new
 * one when there is none. */
static Fallout *fallout_for(Finding *fd, int from, int y)
{
	for (int q = from; q < fd->fallout.n; q++)
		if (fd->fallout.v[q].file == y)
			return &fd->fallout.v[q];
	vec_push(&fd->fallout, ((Fallout){.file = y}));
	return &fd->fallout.v[fd->fallout.n - 1];
}

/*
 * A header that relies on its includers for a name (unresolved) that a
 * leaving file provides loses it wherever its includer got it through
 * the removed line: when it meets the finding's header in some TU, it
 * must include the name's home itself.
 */
static void fallout_of_needers(Check *ck, Root *r, Finding *fd, const IntVec *leaving, uint32_t e, int c)
{
	if (!r->vmark)
		r->vmark = xzalloc_now((size_t)ck->nfiles + 1, sizeof(uint32_t));
	int nfo0 = fd->fallout.n;
	for (int i = 0; i < leaving->n; i++) {
		int f = leaving->v[i];
		for (int k = ck->fprov_off[f]; k < ck->fprov_off[f + 1]; k++) {
			int id = ck->fprov[k];
			for (int j = id < 0 ? 0 : ck->need_off[id]; id >= 0 && j < ck->need_off[id + 1]; j++) {
				int h = ck->need[j];
				if (h == fd->file || r->fmark[h] == e || r->reach_mark[h] == r->reach_epoch)
					continue; /* leaving, or handled as a file reaching it */
				/* already a fallout file with this name? */
				Fallout *fo = NULL;
				for (int q = nfo0; q < fd->fallout.n && !fo; q++)
					if (fd->fallout.v[q].file == h)
						fo = &fd->fallout.v[q];
				bool dup = false;
				for (int q = 0; fo && q < fo->syms.n && !dup; q++)
					dup = fo->syms.v[q] == id;
				if (dup)
					continue;
				/* another provider h includes itself, or that does not leave */
				bool safe = false, home_cond = false;
				int home = -1, best = SK_NKINDS, uflags = 0;
				for (int q = 0; q < ck->unresolved[h].n; q++)
					if (ck->unresolved[h].v[q] >> 1 == id && (ck->unresolved[h].v[q] & 1))
						uflags = UF_TAG | UF_COMPLETE;
				for (int pi = ck->prov_off[id]; pi < ck->prov_off[id + 1] && !safe; pi++) {
					const Prov *p = &ck->provs[pi];
					if (!satisfies(p->kind, uflags))
						continue;
					for (int t = ck->fwd_off[h]; t < ck->fwd_off[h + 1] && !safe && !p->cond; t++)
						safe = ck->fwd[t] == p->file;
					if (r->fmark[p->file] == e && (p->kind < best || (p->kind == best && home_cond && !p->cond)))
						best = p->kind, home = p->file, home_cond = p->cond;
				}
				/* only the provider itself, when it comes for certain:
				 * the removed header may be far too heavy for a
				 * low-level header (struct module -> <linux/init.h>) */
				if (safe || home < 0 || fallout_home(r, c, home, home_cond) != home || !meets(ck, r, h, e))
					continue;
				if (!fo)
					fo = fallout_for(fd, nfo0, h);
				add_unique(&fo->add, public_home(ck, h, home));
				add_unique(&fo->syms, id);
			}
		}
	}
}

/* Empties the set, with room for about `expect` names. */
static void lset_reset(NameSet *set, int expect)
{
	int cap = 16;
	while (cap < 2 * expect && cap < (1 << 30))
		cap *= 2;
	ivec_fill(&set->slots, cap, -1);
	set->count = 0;
}

static void lset_insert(NameSet *set, int id)
{
	unsigned mask = (unsigned)set->slots.n - 1;
	for (unsigned h = ((unsigned)id * 2654435761u) & mask;; h = (h + 1) & mask) {
		if (set->slots.v[h] == id)
			return;
		if (set->slots.v[h] < 0) {
			set->slots.v[h] = id;
			set->count++;
			return;
		}
	}
}

/* Adds a name id (>= 0).  The table doubles before it is half full, so a
 * probe always ends at an empty slot, whatever the caller expected. */
static void lset_add(NameSet *set, int id)
{
	if (2 * (set->count + 1) > set->slots.n) {
		IntVec old = set->slots;
		set->slots = (IntVec){0};
		ivec_fill(&set->slots, old.n ? 2 * old.n : 16, -1);
		set->count = 0;
		for (int i = 0; i < old.n; i++)
			if (old.v[i] >= 0)
				lset_insert(set, old.v[i]);
		vec_free(&old);
	}
	lset_insert(set, id);
}

static bool lset_has(const NameSet *set, int id)
{
	unsigned mask = (unsigned)set->slots.n - 1;
	for (unsigned h = ((unsigned)id * 2654435761u) & mask;; h = (h + 1) & mask) {
		if (set->slots.v[h] == id)
			return true;
		if (set->slots.v[h] < 0)
			return false;
	}
}

/* r->reach: the files that reach `file` over reverse include edges, not
 * through a file marked leaving (fmark == e; none when e is 0), breadth
 * first from it, with their uses summed.  The same for every finding of a
 * file, so computed once per file unless a leaving file is among them. */
static void compute_reach(Check *ck, Root *r, int file, uint32_t e)
{
	if (!r->reach_mark) {
		r->reach_mark = xzalloc_now((size_t)ck->nfiles + 1, sizeof(uint32_t));
		r->reach_pos = xzalloc_now((size_t)ck->nfiles + 1, sizeof(int));
	}
	r->reach_epoch++;
	r->reach_of = e ? -1 : file; /* a reach that skips leaving files is not reused */
	r->reach.n = 0;
	r->reach_uses = 0;
	vec_push(&r->reach, file);
	r->reach_mark[file] = r->reach_epoch;
	r->reach_pos[file] = 0;
	for (int qi = 0; qi < r->reach.n; qi++) {
		int f = r->reach.v[qi];
		r->reach_uses += ck->uses[f].n;
		for (int k = ck->rev_off[f]; k < ck->rev_off[f + 1]; k++) {
			int z = ck->rev[k];
			if (r->reach_mark[z] == r->reach_epoch || (e && r->fmark[z] == e))
				continue;
			r->reach_mark[z] = r->reach_epoch;
			r->reach_pos[z] = r->reach.n;
			vec_push(&r->reach, z);
		}
	}
}

/* Every use of every file: for a name, the files that use it. */
static void build_users(Check *ck)
{
	int nn = ck->nnames;
	ck->user_off = xcalloc((size_t)nn + 2, sizeof(int));
	for (int f = 0; f < ck->nfiles; f++)
		for (int k = 0; k < ck->uses[f].n; k++)
			ck->user_off[ck->uses[f].v[k].id + 1]++;
	for (int i = 0; i < nn; i++)
		ck->user_off[i + 1] += ck->user_off[i];
	ck->users = xmalloc((size_t)ck->user_off[nn] * sizeof(UserRef) + 1);
	/* user_off[id] as id's cursor, as in build_index */
	for (int f = 0; f < ck->nfiles; f++)
		for (int k = 0; k < ck->uses[f].n; k++) {
			int id = ck->uses[f].v[k].id;
			ck->users[ck->user_off[id]++] = (UserRef){f, k};
		}
	memmove(ck->user_off + 1, ck->user_off, (size_t)nn * sizeof(int));
	ck->user_off[0] = 0;
}

static int cmp_userref(const void *a, const void *b)
{
	const UserRef *x = a, *y = b;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->k - y->k;
}

/* What file z, reaching the header, must include itself to keep its use
 * k of a leaving name; adds it to fo. */
static void fallout_use(Check *ck, Root *r, Fallout *fo, int z, int k, uint32_t e, int c)
{
	UseRef *u = &ck->uses[z].v[k];
	if (needs_nothing(u->flags))
		return;
	/* providers: some leaving, none that z provides itself or includes
	 * directly outside the leaving set */
	int home = -1, best = SK_NKINDS;
	bool safe = false, home_cond = false;
	for (int j = ck->prov_off[u->id]; j < ck->prov_off[u->id + 1] && !safe; j++) {
		const Prov *p = &ck->provs[j];
		if ((u->flags & UF_PROTO) ? p->kind != SK_FUNC_DECL : !satisfies(p->kind, u->flags))
			continue;
		if (p->file == z && !(p->cond && (u->flags & UF_COND)))
			safe = true; /* z defines it (not as an #ifndef fallback) */
		for (int t = ck->fwd_off[z]; t < ck->fwd_off[z + 1] && !safe && !p->cond; t++)
			safe = ck->fwd[t] == p->file; /* z includes it itself */
		if (!safe && r->fmark[p->file] == e && (p->kind < best || (p->kind == best && home_cond && !p->cond)))
			best = p->kind, home = p->file, home_cond = p->cond;
	}
	if (safe || home < 0)
		return;
	add_unique(&fo->add, public_home(ck, z, fallout_home(r, c, home, home_cond)));
	add_unique(&fo->syms, u->id);
}

/*
 * The files that read z with an #include inside braces or parentheses:
 * z is then an X-macro table (the kernel's lsm_hook_defs.h, read inside
 * structs of <linux/lsm_hooks.h> and security.c), and an #include added
 * to it would land inside such a struct; what the table needs, those
 * includers must bring.  Union mode: the graph says which file each
 * line includes.
 */
static void index_nested(Check *ck)
{
	const Graph *g = ck->s->graph;
	IntVec table = {0}, includer = {0}, to = {0}, dirs = {0};
	for (int y = 0; y < ck->nfiles && g; y++) {
		const Symbols *sy = syms_of(ck, y);
		const Facts *ff = ck->s->ft.files[y].facts;
		bool any = false;
		for (uint32_t k = 0; sy && k < sy->npragmas && !any; k++)
			any = sym_pragmas(sy)[k].kind == PR_NESTED;
		if (!any || !ff)
			continue;
		graph_file_edges(g, ck->s->cfg.ctxs.v[ctx_of(ck, y)].chain, y, &to, &dirs);
		for (int k = 0; k < to.n; k++)
			if (to.v[k] >= 0 && to.v[k] < ck->nfiles && dirs.v[k] >= 0 &&
			    (uint32_t)dirs.v[k] < ff->ndirs && has_pragma(sy, facts_dirs(ff)[dirs.v[k]].line, PR_NESTED)) {
				vec_push(&table, to.v[k]);
				vec_push(&includer, y);
			}
	}
	csr_build(ck->nfiles, table.v, includer.v, table.n, &ck->nested_off, &ck->nested);
	vec_free(&table);
	vec_free(&includer);
	vec_free(&to);
	vec_free(&dirs);
}

static bool is_table(const Check *ck, int z)
{
	return z < ck->nfiles && ck->nested_off[z + 1] > ck->nested_off[z];
}

/* Adds to fd's fallout that file y must include what fo says. */
static void fallout_merge(Finding *fd, int y, const Fallout *fo)
{
	Fallout *to = fallout_for(fd, 0, y);
	for (int q = 0; q < fo->syms.n; q++)
		add_unique(&to->syms, fo->syms.v[q]);
	for (int q = 0; q < fo->add.n; q++)
		add_unique(&to->add, fo->add.v[q]);
}

/* Fallout for an X-macro table goes to the files that include it inside
 * braces (and on up, for a table read by a table).  False when one is
 * the finding's own file: it cannot both drop the line and bring what
 * the line brings. */
static bool fallout_out_of_tables(Check *ck, Finding *fd)
{
	for (int k = 0, rounds = 0; k < fd->fallout.n && rounds < 1000; k++) {
		int z = fd->fallout.v[k].file;
		if (!fd->fallout.v[k].add.n || !is_table(ck, z))
			continue;
		rounds++;
		Fallout fo = fd->fallout.v[k];
		memmove(&fd->fallout.v[k], &fd->fallout.v[k + 1], (size_t)(fd->fallout.n - k - 1) * sizeof(fo));
		fd->fallout.n--;
		bool ok = true;
		for (int i = ck->nested_off[z]; i < ck->nested_off[z + 1] && ok; i++) {
			if (ck->nested[i] == fd->file)
				ok = false;
			else
				fallout_merge(fd, ck->nested[i], &fo);
		}
		vec_free(&fo.syms);
		vec_free(&fo.add);
		if (!ok)
			return false;
		k--; /* the entry now at k, and includers that are tables themselves */
	}
	return true;
}

/* Marks (r->cmark == the epoch returned) the files in the whole-tree
 * closure of file `from`, over every configuration's edges. */
static uint32_t mark_closure(Check *ck, Root *r, int from)
{
	if (!r->cmark)
		r->cmark = xzalloc_now((size_t)ck->nfiles + 1, sizeof(uint32_t));
	uint32_t e = ++r->cepoch;
	IntVec *q = &r->queue;
	q->n = 0;
	vec_push(q, from);
	r->cmark[from] = e;
	for (int qi = 0; qi < q->n; qi++) {
		int f = q->v[qi];
		for (int k = ck->fwd_off[f]; k < ck->fwd_off[f + 1]; k++) {
			int z = ck->fwd[k];
			if (r->cmark[z] != e) {
				r->cmark[z] = e;
				vec_push(q, z);
			}
		}
	}
	return e;
}

/* Whether a fallout entry would have a header include a file that
 * includes it back.  Which of the two then comes first decides what the
 * other sees of it: numa.h relies on its includers for N_ONLINE (a macro
 * body) from <linux/nodemask.h>, whose <linux/nodemask_types.h> needs
 * MAX_NUMNODES from numa.h; numa.h including nodemask.h breaks every file
 * that enters the pair through numa.h.  Such a finding is not made. */
static bool fallout_closes_cycle(Check *ck, Root *r, Finding *fd)
{
	IntVec adds = {0}; /* the files some header is to include */
	for (int k = 0; k < fd->fallout.n; k++) {
		const Fallout *fo = &fd->fallout.v[k];
		if (ck->rev_off[fo->file + 1] == ck->rev_off[fo->file])
			continue; /* nothing includes it */
		for (int a = 0; a < fo->add.n; a++)
			if (fo->add.v[a] < ck->nfiles)
				add_unique(&adds, fo->add.v[a]);
	}
	bool cycle = false;
	for (int i = 0; i < adds.n && !cycle; i++) {
		uint32_t e = mark_closure(ck, r, adds.v[i]);
		for (int k = 0; k < fd->fallout.n && !cycle; k++) {
			const Fallout *fo = &fd->fallout.v[k];
			if (r->cmark[fo->file] != e)
				continue;
			for (int a = 0; a < fo->add.n; a++)
				cycle |= fo->add.v[a] == adds.v[i];
		}
	}
	vec_free(&adds);
	return cycle;
}

/* fd's fallout: the files that rely on what leaves with line c (none of
 * them an X-macro table).  False when the finding cannot be made (see
 * fallout_out_of_tables). */
static bool compute_fallout(Check *ck, Root *r, Finding *fd, const IntVec *leaving, int c)
{
	build_rev(ck);
	int n = ck->nfiles;
	if (!r->fmark)
		r->fmark = xzalloc_now((size_t)n + 1, sizeof(uint32_t));
	r->fepoch++;
	uint32_t e = r->fepoch;
	/* A file the index has never seen (read first by an exact-mode walk
	 * after the index was built): what it provides is unknown, so what
	 * its leaving breaks cannot be said.  The include stays. */
	for (int i = 0; i < leaving->n; i++)
		if (leaving->v[i] < 0 || leaving->v[i] >= n)
			return false;
	int nl = 0;
	for (int i = 0; i < leaving->n; i++) {
		int f = leaving->v[i];
		r->fmark[f] = e;
		nl += ck->fprov_off[f + 1] - ck->fprov_off[f];
	}
	lset_reset(&r->lnames, nl);
	for (int i = 0; i < leaving->n; i++)
		for (int k = ck->fprov_off[leaving->v[i]]; k < ck->fprov_off[leaving->v[i] + 1]; k++)
			if (ck->fprov[k] >= 0)
				lset_add(&r->lnames, ck->fprov[k]);
	/* the files that reach the header; through a leaving file only
	 * where the includes go round a cycle, which needs its own walk */
	if (r->reach_of != fd->file)
		compute_reach(ck, r, fd->file, 0);
	bool cycle = false;
	for (int i = 0; i < leaving->n && !cycle; i++)
		cycle = leaving->v[i] != fd->file && r->reach_mark[leaving->v[i]] == r->reach_epoch;
	if (cycle)
		compute_reach(ck, r, fd->file, e);
	/* the uses of leaving names in those files: from the files' side or
	 * from the names' side, whichever is less to read; in reach order */
	r->hits.n = 0;
	long by_names = 0;
	for (int i = 0; i < r->lnames.slots.n; i++)
		if (r->lnames.slots.v[i] >= 0)
			by_names += ck->user_off[r->lnames.slots.v[i] + 1] - ck->user_off[r->lnames.slots.v[i]];
	if (by_names < r->reach_uses) {
		for (int i = 0; i < r->lnames.slots.n; i++) {
			int id = r->lnames.slots.v[i];
			if (id < 0)
				continue;
			for (int j = ck->user_off[id]; j < ck->user_off[id + 1]; j++) {
				int z = ck->users[j].file;
				if (z == fd->file || r->reach_mark[z] != r->reach_epoch || r->fmark[z] == e)
					continue;
				UserRef h = {r->reach_pos[z], ck->users[j].k};
				vec_push(&r->hits, h);
			}
		}
		if (r->hits.n > 1)
			qsort(r->hits.v, (size_t)r->hits.n, sizeof(UserRef), cmp_userref);
	} else {
		for (int qi = 1; qi < r->reach.n; qi++) {
			int z = r->reach.v[qi];
			if (r->fmark[z] == e)
				continue;
			for (int k = 0; k < ck->uses[z].n; k++)
				if (lset_has(&r->lnames, ck->uses[z].v[k].id)) {
					UserRef h = {qi, k};
					vec_push(&r->hits, h);
				}
		}
	}
	for (int i = 0; i < r->hits.n;) {
		int pos = r->hits.v[i].file, z = r->reach.v[pos];
		Fallout fo = {.file = z};
		for (; i < r->hits.n && r->hits.v[i].file == pos; i++)
			fallout_use(ck, r, &fo, z, r->hits.v[i].k, e, c);
		if (fo.add.n)
			vec_push(&fd->fallout, fo);
		else {
			vec_free(&fo.add);
			vec_free(&fo.syms);
		}
	}
	fallout_of_needers(ck, r, fd, leaving, e, c);
	if (cycle)
		r->reach_of = -1;
	return fallout_out_of_tables(ck, fd) && !fallout_closes_cycle(ck, r, fd);
}

static bool wanted(const Check *ck, int kind)
{
	return ck->kinds & (1u << kind);
}

/* Every name the root uses, with the unresolved uses of its closure. */
typedef struct {
	int id, flags;
	unsigned line; /* own use: its first line; else 0 */
	int from;      /* closure use: the node that needs it; -1 own */
	int need;      /* closure use: need << 1 | complete; -1 own */
	unsigned from_avail; /* closure use: avail(from) */
} EffUse;

/* The header to include instead of line c for name id (used with
 * flags): of its providers that leave with the line, one that comes for
 * certain through it, then one outside any #if, then the best kind of
 * provide (a definition before a declaration); -1 when none. */
static int leaving_home(Check *ck, Root *r, int id, int flags, int c, int file)
{
	int home = -1, best = 0;
	for (int j = ck->prov_off[id]; j < ck->prov_off[id + 1]; j++) {
		const Prov *p = &ck->provs[j];
		if ((flags & UF_PROTO) ? p->kind != SK_FUNC_DECL : !satisfies(p->kind, flags))
			continue;
		int node = closure_node(r, p->file);
		if (node <= 0 || r->lab1.v[node] != c)
			continue;
		bool cert = r->cert1.v[node] == c || r->cert2.v[node] == c;
		int score = (cert ? 4 * SK_NKINDS : 0) + (p->cond ? 0 : 2 * SK_NKINDS) + (SK_NKINDS - p->kind);
		if (home < 0 || score > best)
			home = p->file, best = score;
	}
	return home < 0 ? -1 : public_home(ck, file, home);
}

/* A project header that defines no struct, union or enum of its own: an
 * umbrella, whose replacement the headers it brings may rely on.  One
 * that defines a tag is not replaced that way: a use of the tag reached
 * through members (st->readers[0]->name) is one the symbol facts do
 * not see (git's reftable/reader.h). */
static bool umbrella_like(Check *ck, int target)
{
	if (!(ck->s->ft.files[target].flags & F_IN_TREE))
		return false; /* a system header's parts are not to be included alone */
	const Symbols *sy = syms_of(ck, target);
	for (uint32_t k = 0; sy && k < sy->nprovides; k++)
		if (sym_provides(sy)[k].kind == SK_TAG_DEF)
			return false;
	return true;
}

/* The nodes of the root's closure once line c's target (node avoid)
 * goes and the files in adds are included instead: seen[v] = 1. */
static void closure_without(const Root *r, const IntVec *adds, int avoid, uint8_t *seen, IntVec *queue)
{
	const TuGraph *g = &r->g;
	memset(seen, 0, (size_t)g->nodes.n);
	queue->n = 0;
	seen[0] = 1;
	vec_push(queue, 0);
	for (int u = 1; u < g->nodes.n; u++)
		for (int a = 0; a < adds->n; a++)
			if (g->nodes.v[u] == adds->v[a] && u != avoid && !seen[u]) {
				seen[u] = 1;
				vec_push(queue, u);
			}
	for (int q = 0; q < queue->n; q++) {
		int u = queue->v[q];
		for (int k = g->succ_off.v[u]; k < g->succ_off.v[u + 1]; k++) {
			int w = g->succ.v[k];
			if (w >= 0 && w != avoid && !seen[w]) {
				seen[w] = 1;
				vec_push(queue, w);
			}
		}
	}
}

/*
 * A replaceable include whose target is an umbrella (git's cache.h:
 * git-compat-util.h first, then the API headers): the headers that stay
 * or replace it may rely on their includer for names another header of
 * the umbrella provides (api.h's timestamp_t, from compat.h).  Every such
 * need of a header in the closure the replacement leaves, which no file
 * of that closure meets, has its provider included too, before the
 * others (it came first through the umbrella), until nothing more is
 * needed.  False when a need only the target meets has no provider that
 * could be included instead.
 */
static bool add_header_needs(Check *ck, Root *r, int c, int file, int target, IntVec *adds)
{
	int avoid = r->redges.v[c].node;
	int n = r->g.nodes.n;
	uint8_t *seen = xmalloc((size_t)n + 1);
	IntVec queue = {0}, first = {0}, all = {0};
	bool ok = true, grew = true;
	for (int round = 0; grew && ok && round < 32; round++) {
		grew = false;
		all.n = 0;
		for (int i = 0; i < first.n; i++)
			vec_push(&all, first.v[i]);
		for (int i = 0; i < adds->n; i++)
			vec_push(&all, adds->v[i]);
		closure_without(r, &all, avoid, seen, &queue);
		for (int v = 1; v < n && ok; v++) {
			int h = r->g.nodes.v[v];
			if (!seen[v] || h >= ck->nfiles || !(ck->s->ft.files[h].flags & F_IN_TREE))
				continue; /* a system header meets its own needs */
			if (!ck->has_unresolved[h]) {
				ok = false; /* its needs are not known */
				break;
			}
			for (int k = ck->cu_off[h]; k < ck->cu_off[h + 1] && ok; k++) {
				int x = ck->cu[k];
				int id = ck->need_name[x >> 1];
				int flags = x & 1 ? UF_TAG | UF_COMPLETE : 0;
				bool met = false, any = false;
				int met_by = -1;
				for (int j = ck->prov_off[id]; j < ck->prov_off[id + 1] && !met; j++) {
					const Prov *p = &ck->provs[j];
					if (!satisfies(p->kind, flags))
						continue;
					int node = closure_node(r, p->file);
					any = any || node >= 0;
					met = node >= 0 && seen[node];
					if (met)
						met_by = p->file;
				}
				/* met by a file the replacement adds: that one goes
				 * first (the header that needs it comes after) */
				for (int i = 0; met && i < adds->n; i++)
					if (adds->v[i] == met_by && adds->v[i] != h) {
						bool have = false;
						for (int q = 0; q < first.n && !have; q++)
							have = first.v[q] == met_by;
						if (!have)
							vec_push(&first, met_by);
					}
				if (met || !any)
					continue; /* met, or met by nothing before either */
				int home = leaving_home(ck, r, id, flags, c, file);
				if (home < 0 || home == target) {
					ok = false;
					break;
				}
				bool have = false;
				for (int i = 0; i < first.n && !have; i++)
					have = first.v[i] == home;
				if (!have) {
					/* one at a time: what it brings may meet the
					 * other needs */
					vec_push(&first, home);
					grew = true;
					break;
				}
			}
			if (grew)
				break;
		}
	}
	if (grew)
		ok = false; /* still growing after the last round: give up */
	if (ok && first.n) {
		/* the providers first, those found last (needed by the ones
		 * before) first of all */
		IntVec out = {0};
		for (int i = first.n - 1; i >= 0; i--)
			vec_push(&out, first.v[i]);
		for (int i = 0; i < adds->n; i++) {
			bool dup = false;
			for (int j = 0; j < first.n && !dup; j++)
				dup = first.v[j] == adds->v[i];
			if (!dup)
				vec_push(&out, adds->v[i]);
		}
		vec_free(adds);
		*adds = out;
	}
	vec_free(&first);
	vec_free(&all);
	vec_free(&queue);
	free(seen);
	return ok;
}

/* The root line a use depends on: removing it leaves the use with no
 * provider that comes for certain before the point of use.  -1 for none;
 * -2 when no single line decides (the use is not satisfied in order, or
 * only through #if branches of unknown value): then every line that
 * brings a provider counts. */
static int use_depends(const Root *r, const EffUse *e, int *lines_out, int *nlines)
{
	*nlines = 0;
	bool own = e->from < 0;
	unsigned at = own ? e->line : avail(r, e->from);
	bool satisfied = false;
	int s0 = -1, s1 = -1; /* distinct certain lines bringing a provider in time */
	for (int j = 0; j < r->prov_nodes.n; j++) {
		int p = r->prov_nodes.v[j];
		unsigned a = avail(r, p);
		if (own ? a < at : a <= at)
			satisfied = true;
		int cl[2] = {r->cert1.v[p], r->cert2.v[p]};
		for (int q = 0; q < 2 && r->prov_cert.v[j]; q++) {
			int x = cl[q];
			if (x < 0)
				continue;
			unsigned xl = r->redges.v[x].line;
			if (!(own ? xl < at : xl <= at))
				continue;
			if (s0 < 0)
				s0 = x;
			else if (x != s0 && s1 < 0)
				s1 = x;
		}
	}
	if (satisfied && s1 >= 0)
		return -1; /* two certain ways: no one line is needed */
	if (!satisfied || s0 < 0) {
		/* keep every line that brings a provider */
		for (int j = 0; j < r->prov_nodes.n; j++) {
			int p = r->prov_nodes.v[j];
			if (r->lab1.v[p] >= 0)
				lines_out[(*nlines)++] = r->lab1.v[p];
			if (r->lab2.v[p] >= 0)
				lines_out[(*nlines)++] = r->lab2.v[p];
			if (*nlines > 60)
				break;
		}
		return -2;
	}
	/* one certain line: it is needed, unless the header that needs the
	 * name leaves with it */
	if (!own && r->lab1.v[e->from] == s0 && avail_without(r, e->from, s0) == NEVER)
		return -1;
	return s0;
}

typedef VEC(UseRef) UseRefVec;

/* The file's uses with the branches its configuration does not take
 * left out (their lines blanked, their directives skipped). */
static bool live_uses(Check *ck, int file, const TuGraph *g, void *outp)
{
	UseRefVec *out = outp;
	FileTable *ft = &ck->s->ft;
	size_t len;
	char *buf = fs_read(ft, file, &len);
	if (!buf)
		return false;
	uint32_t line = 1;
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			line++;
			continue;
		}
		for (int k = 0; k + 1 < g->dead.n; k += 2)
			if (line > g->dead.v[k] && line < g->dead.v[k + 1]) {
				buf[i] = ' ';
				break;
			}
	}
	DeclScratch *ds = decl_scratch_new();
	Symbols *sy = decl_file_live(buf, len, ft->files[file].facts, ds, g->dead.v, g->dead.n);
	for (uint32_t k = 0; k < sy->nuses; k++) {
		const SymEntry *e = &sym_uses(sy)[k];
		int id = name_id(ck->names, sym_name(sy, e), e->name_len, e->flags & UF_TAG, false);
		if (id >= 0 && ck->old2new)
			id = ck->old2new[id];
		if (id < 0)
			continue;
		UseRef u = use_ref(id, e->flags, e->line);
		vec_push(out, u);
	}
	free(sy);
	decl_scratch_free(ds);
	free(buf);
	return true;
}

/* A header that provides nothing but its guard: <uapi/linux/errno.h>,
 * <asm/string.h> choosing string_32.h or string_64.h.  What it includes
 * is what it is for, exported to its includers. */
static bool is_forwarder(Check *ck, int file)
{
	const File *fl = &ck->s->ft.files[file];
	if (ck->is_c[file] || !fl->syms || !fl->facts)
		return false;
	const Symbols *sy = fl->syms;
	const char *guard = fl->facts->guard >= 0 ? facts_strs(fl->facts) + fl->facts->guard_name_off : NULL;
	for (uint32_t k = 0; k < sy->nprovides; k++) {
		const SymEntry *e = &sym_provides(sy)[k];
		if (e->kind == SK_SEED)
			continue;
		if (guard && e->kind == SK_MACRO && e->name_len == fl->facts->guard_name_len &&
		    !memcmp(sym_name(sy, e), guard, e->name_len))
			continue;
		return false;
	}
	return true;
}

/* Whether the included header relies on the root for a name (it uses what
 * the root defines before including it at line, as
 * <asm-generic/bitops/fls64.h> uses __fls from <asm/bitops.h>): the
 * include is part of the root.  What the root provides only below the
 * #include is not what the header relies on: <linux/dcache.h> names
 * struct file in prototypes, <linux/fs.h> defines it far below its
 * include of dcache.h. */
static bool needs_includer(Check *ck, Root *r, int target, unsigned line)
{
	/* it tests in an #if a macro the root defines: the root configures
	 * it (<asm/posix_types_64.h> defines __kernel_old_uid_t, and
	 * <asm-generic/posix_types.h> then skips its own typedef) */
	for (int k = 0; k < ck->uses[target].n; k++) {
		const UseRef *u = &ck->uses[target].v[k];
		if ((u->flags & UF_COND) && (root_kinds(r, u->id) >> SK_MACRO & 1) &&
		    (!line || root_first_line(r, u->id) < line))
			return true;
	}
	if (!ck->has_unresolved[target])
		return false;
	for (int k = 0; k < ck->unresolved[target].n; k++) {
		int id = ck->unresolved[target].v[k] >> 1;
		if (root_satisfies(r, id, (ck->unresolved[target].v[k] & 1) ? UF_TAG | UF_COMPLETE : 0) &&
		    (!line || root_first_line(r, id) < line))
			return true;
	}
	return false;
}

/* The names a macro body of the root makes by pasting (out##bwl) may come
 * from any header that provides a name with that start: every line that
 * brings one is kept. */
static void keep_pasted(Check *ck, Root *r, int file, uint8_t *keep)
{
	char buf[300];
	for (int i = 0; i < ck->prefixes[file].n; i++) {
		const struct Prefix *px = &ck->prefixes[file].v[i];
		for (int v = 1; v < r->n; v++) {
			int f = r->g.nodes.v[v], l1 = r->lab1.v[v], l2 = r->lab2.v[v];
			if (f >= ck->nfiles || ((l1 < 0 || keep[l1]) && (l2 < 0 || keep[l2])))
				continue; /* nothing more to keep through it */
			/* every name it provides, by its text: most are names no
			 * file uses, which have no id */
			const Symbols *sy = syms_of(ck, f);
			for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
				const SymEntry *e = &sym_provides(sy)[k];
				const char *name;
				size_t n = provide_text(sym_name(sy, e), e->name_len, sym_is_tag_kind(e->kind), buf,
							sizeof(buf), &name);
				if (n == (size_t)-1)
					n = 0, name = ""; /* interned as the empty name */
				if (n < px->n || name[0] != px->s[0] || memcmp(name, px->s, px->n))
					continue;
				if (l1 >= 0)
					keep[l1] = 1;
				if (l2 >= 0)
					keep[l2] = 1;
				break;
			}
		}
	}
}

/* Keeps root line c (-1: none), which is then no longer open to be a
 * finding. */
static void close_line(uint8_t *keep, uint8_t *open_line, int *nopen, int c)
{
	if (c < 0)
		return;
	keep[c] = 1;
	if (open_line[c]) {
		open_line[c] = 0;
		(*nopen)--;
	}
}

/* Marks, for a use that no one line decides, its providers that more
 * lines than the two use_depends kept may bring (far_prov, by node,
 * allocated on the first mark).  A line that includes one of them itself,
 * under an #if, stays: the file includes the provider where it needs it
 * (sysctl.c includes <linux/rtmutex.h> under CONFIG_RT_MUTEXES, as it uses
 * max_lock_depth; the first lines that reach it do so only under
 * CONFIG_PREEMPT_RT), and the conditions of the ways through other
 * headers are not compared with the use's. */
static void mark_far_providers(const Root *r, uint8_t **far_prov)
{
	for (int j = 0; j < r->prov_nodes.n; j++) {
		int p = r->prov_nodes.v[j];
		if (r->lab2.v[p] < 0)
			continue; /* one line brings it: that line is kept */
		if (!*far_prov)
			*far_prov = xcalloc((size_t)r->n + 1, 1);
		(*far_prov)[p] = 1;
	}
}

/* Whether root line x (a label; -1 none) is still open. */
static inline bool open_label(const uint8_t *open_line, int x)
{
	return x >= 0 && open_line[x];
}

typedef VEC(EffUse) EffUseVec;

/* Marks need q as one of the root's candidates (see add_closure_uses). */
static inline void mark_candidate(Root *r, int q)
{
	uint64_t *w = &r->cand[q >> 6];
	if (!*w)
		vec_push(&r->cand_words, q >> 6);
	*w |= 1ull << (q & 63);
}

/*
 * Appends to eff what the headers of the closure leave to their includer
 * (per need, from the header available first: the strictest point of
 * use), as far as it may still close one of the lines open now.  A
 * closure use only ever closes lines that bring one of its providers
 * (use_depends), so only the needs that a node of an open line provides
 * a name of are read, or, for a name a macro may make, has a seed of:
 * found from the nodes' side (fneed, fseed).  Lines only close as the
 * uses are read, so the candidates taken now stay a superset.  With
 * exported includes every need is read (an exporter provides too).
 */
static void add_closure_uses(Check *ck, Root *r, EffUseVec *eff, const uint8_t *open_line)
{
	bool every = r->exp_pairs.n > 0;
	if (!r->cand)
		r->cand = xzalloc_now((size_t)ck->nneeds / 64 + 1, sizeof(uint64_t));
	for (int v = 1; v < r->n && !every; v++) {
		if (!open_label(open_line, r->lab1.v[v]) && !open_label(open_line, r->lab2.v[v]) &&
		    !open_label(open_line, r->cert1.v[v]) && !open_label(open_line, r->cert2.v[v]))
			continue;
		int f = r->g.nodes.v[v];
		if (f >= ck->nfiles)
			continue;
		for (int k = ck->fneed_off[f]; k < ck->fneed_off[f + 1]; k++)
			mark_candidate(r, ck->fneed[k]);
		for (int k = ck->fseed_off[f]; k < ck->fseed_off[f + 1]; k++) {
			int sid = ck->fseed[k];
			for (int j = ck->seed_need_off[sid]; j < ck->seed_need_off[sid + 1]; j++)
				mark_candidate(r, ck->seed_need[j]);
		}
	}
	for (int v = 1; v < r->n && (every || r->cand_words.n); v++) {
		int h = r->g.nodes.v[v];
		if (h >= ck->nfiles || !ck->has_unresolved[h])
			continue; /* a file an exact walk found late has no facts here */
		unsigned av = avail(r, v);
		for (int k = ck->cu_off[h]; k < ck->cu_off[h + 1]; k++) {
			int x = ck->cu[k];
			int q = x >> 1;
			if (!every && !(r->cand[q >> 6] >> (q & 63) & 1))
				continue;
			struct NeedMark *m = &r->need_mark[q];
			if (m->epoch == r->epoch) {
				EffUse *o = &eff->v[m->slot];
				if (o->from >= 0 && av < o->from_avail) {
					o->from = v;
					o->from_avail = av;
				}
				continue;
			}
			EffUse e = {ck->need_name[q], x & 1 ? UF_TAG | UF_COMPLETE : 0, 0, v, x, av};
			*m = (struct NeedMark){r->epoch, eff->n};
			vec_push(eff, e);
		}
	}
	for (int i = 0; i < r->cand_words.n; i++)
		r->cand[r->cand_words.v[i]] = 0;
	r->cand_words.n = 0;
}

/* Whether f has an #include line (forced includes are not its lines). */
static bool includes_anything(const Facts *f)
{
	for (uint32_t i = 0; i < f->ndirs; i++)
		if (facts_dirs(f)[i].kind == D_INCLUDE || facts_dirs(f)[i].kind == D_INCLUDE_NEXT)
			return true;
	return false;
}

static void check_file(Check *ck, Root *r, int file, FindingVec *out)
{
	FileTable *ft = &ck->s->ft;
	const Facts *ff = ft->files[file].facts;
	if (!ff)
		return;
	/* Without an #include line of its own a file has nothing to remove,
	 * and only the strict policy adds includes here (the minimal one's
	 * "missing" come from the fallout of other files' findings): no
	 * closure to read.  A fifth of the kernel's files are such. */
	bool strict_missing = ck->strict && wanted(ck, FK_MISSING);
	if (!strict_missing && !includes_anything(ff))
		return;
	load_root(ck, r, file, true);
	if (!r->need_mark)
		r->need_mark = xzalloc_now((size_t)ck->nneeds + 1, sizeof(*r->need_mark));
	r->epoch++;
	EffUseVec eff = {0};
	/* exact mode: only what the configuration compiles of the file */
	VEC(UseRef) live = {0};
	bool use_live = r->g.dead.n > 0 && live_uses(ck, file, &r->g, (void *)&live);
	const UseRef *own = use_live ? live.v : ck->uses[file].v;
	int nown = use_live ? live.n : ck->uses[file].n;
	for (int k = 0; k < nown; k++) {
		const UseRef *u = &own[k];
		EffUse e = {u->id, u->flags, u->line, -1, -1, 0};
		int q = ck->need_of_name[u->id];
		if (q >= 0 && !(u->flags & UF_PROTO)) /* a prototype wants more than the need */
			r->need_mark[q] = (struct NeedMark){r->epoch, eff.n};
		vec_push(&eff, e);
	}
	int nre = r->redges.n;
	IntVec *deps = xcalloc((size_t)nre + 1, sizeof(IntVec));
	uint8_t *uses_itself = xcalloc((size_t)nre + 1, 1); /* uses a name the included file provides */
	uint8_t *keep = xcalloc((size_t)nre + 1, 1);
	uint8_t *hdr_kept = xcalloc((size_t)nre + 1, 1); /* a header in the closure needs it */
	uint8_t *used_node = xcalloc((size_t)r->n + 1, 1); /* provides a name the file uses */
	int lines[64], nlines;
	uint8_t *far_prov = NULL; /* by node; see mark_far_providers */
	/* The lines that may become findings.  A use of the closure can only
	 * make lines needed (its own uses come first): once no line is left
	 * open, the rest of them change nothing. */
	const Symbols *own_syms = syms_of(ck, file);
	bool forwarder = is_forwarder(ck, file);
	/* an #include whose name is computed from macros nobody here knows
	 * (trace_events.h's #include TRACE_INCLUDE(TRACE_INCLUDE_FILE)) may
	 * use whatever the lines before it define */
	unsigned opaque_until = 0;
	for (int m = 0; m < r->g.missing.n; m++) {
		const TuMissing *tm = &r->g.missing.v[m];
		if (tm->from_file != file || tm->dir < 0 || !(facts_dirs(ff)[tm->dir].flags & DF_COMPUTED))
			continue;
		if (facts_dirs(ff)[tm->dir].line > opaque_until)
			opaque_until = facts_dirs(ff)[tm->dir].line;
	}
	bool removals = wanted(ck, FK_UNUSED) || wanted(ck, FK_REDUNDANT) || wanted(ck, FK_REPLACEABLE) ||
			wanted(ck, FK_FORWARD);
	uint8_t *open_line = xcalloc((size_t)nre + 1, 1);
	int nopen = 0;
	for (int c = 0; c < nre && removals && !forwarder /* its includes are all it is */; c++) {
		const RootEdge *re = &r->redges.v[c];
		int target = r->g.nodes.v[re->node];
		open_line[c] = re->dir >= 0 &&                    /* forced includes are always there */
			       !kept_line(own_syms, re->line) && /* the user said so, or an X-macro table */
			       target != file &&
			       target < ck->nfiles && /* found late by an exact walk: nothing known of it */
			       /* a .c, .inc, .def ... file: code, not declarations */
			       ends_with(fs_keystr(ft, ft->files[target].key), ".h") &&
			       re->line >= opaque_until; /* a computed #include after it may need it */
		nopen += open_line[c];
	}
	if (!nopen && !strict_missing)
		goto done; /* no line to decide about */
	/* every use's providers, kept for the findings below: effp_off[k]
	 * is where use k's are in effp, effp_np[k] all_providers' count */
	r->effp_off.n = 0;
	r->effp.n = 0;
	ivec_fill(&r->effp_np, eff.n, 0);
	/* the file's own uses first; then, while some line is open, what the
	 * closure's headers need */
	for (int k = 0, pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (!nopen)
				break;
			add_closure_uses(ck, r, &eff, open_line);
			while (r->effp_np.n < eff.n)
				vec_push(&r->effp_np, 0);
		}
		for (; k < eff.n; k++) {
			EffUse *e = &eff.v[k];
			if (e->from >= 0 && !nopen)
				break;
			int np = e->need >= 0 ? need_providers(ck, r, e->need) : all_providers(ck, r, e->id, e->flags);
			vec_push(&r->effp_off, r->effp.n);
			r->effp_np.v[k] = np;
			for (int j = 0; j < np; j++)
				vec_push(&r->effp, r->prov_nodes.v[j]);
			if (np < 0)
				continue;
			if (np == 0 && !(e->need >= 0 ? need_seed_providers(ck, r, e->need) : seed_providers(ck, r, e->id)))
				continue;
			if (np == 0) {
				/* maybe made by a macro: keep every line it could come
				 * from (a system header's need: unless a replacement
				 * meets it) */
				for (int j = 0; j < r->prov_nodes.n; j++) {
					int p = r->prov_nodes.v[j];
					if (e->from >= 0 && !(ft->files[r->g.nodes.v[e->from]].flags & F_IN_TREE)) {
						/* a system header's: it meets its own */
						if (r->lab1.v[p] >= 0)
							hdr_kept[r->lab1.v[p]] = 1;
						if (r->lab2.v[p] >= 0)
							hdr_kept[r->lab2.v[p]] = 1;
						continue;
					}
					close_line(keep, open_line, &nopen, r->lab1.v[p]);
					close_line(keep, open_line, &nopen, r->lab2.v[p]);
				}
				mark_far_providers(r, &far_prov);
				continue;
			}
			for (int j = 0; j < np && e->from < 0; j++)
				used_node[r->prov_nodes.v[j]] = 1;
			int c = use_depends(r, e, lines, &nlines);
			if (c == -2 && e->from >= 0) {
				/* a header's need: only a replacement that meets
				 * it may take the line (add_header_needs) */
				for (int j = 0; j < nlines; j++)
					hdr_kept[lines[j]] = 1;
				mark_far_providers(r, &far_prov);
			} else if (c == -2) {
				for (int j = 0; j < nlines; j++)
					close_line(keep, open_line, &nopen, lines[j]);
				mark_far_providers(r, &far_prov);
			} else if (c >= 0) {
				vec_push(&deps[c], k);
				if (e->from >= 0)
					hdr_kept[c] = 1; /* needed by a header: as above */
			}
		}
	}
	vec_push(&r->effp_off, r->effp.n);
	keep_pasted(ck, r, file, keep);
	for (int c = 0; c < nre; c++)
		uses_itself[c] = used_node[r->redges.v[c].node];
	for (int c = 0; c < nre; c++) {
		RootEdge *re = &r->redges.v[c];
		if (!open_line[c] || keep[c])
			continue;
		int target = r->g.nodes.v[re->node];
		if (needs_includer(ck, r, target, re->line))
			continue; /* the header is written to be included here */
		if (re->cond && far_prov && far_prov[re->node])
			continue; /* see mark_far_providers */
		int kind = -1;
		if (!deps[c].n) {
			bool elsewhere = avail_without(r, re->node, c) != NEVER;
			kind = uses_itself[c] && elsewhere ? FK_REDUNDANT : FK_UNUSED;
		} else {
			/* only "struct S *" uses: a declaration of S will do */
			bool pointers = true;
			for (int j = 0; j < deps[c].n && pointers; j++) {
				EffUse *e = &eff.v[deps[c].v[j]];
				if (!(e->flags & UF_TAG) || (e->flags & UF_COMPLETE) || e->from >= 0)
					pointers = false;
			}
			if (pointers)
				kind = FK_FORWARD;
		}
		if (kind < 0 && deps[c].n) {
			bool movable = true;
			for (int j = 0; j < deps[c].n && movable; j++) {
				/* a header's need (api.h naming what compat.h
				 * defines) is met by including its provider
				 * first: see add_header_needs */
				int kk = deps[c].v[j];
				for (int q = r->effp_off.v[kk]; q < r->effp_off.v[kk + 1]; q++)
					if (r->effp.v[q] == re->node)
						movable = false;
			}
			if (movable)
				kind = FK_REPLACEABLE;
		}
		/* a line a header of its closure needs goes only for a
		 * replacement of an umbrella (umbrella_like) */
		if (kind < 0 || !wanted(ck, kind) ||
		    (hdr_kept[c] && (kind != FK_REPLACEABLE || !umbrella_like(ck, target))))
			continue;
		Finding fd;
		finding_init(&fd, file, kind);
		fd.dir = re->dir;
		fd.line = re->line;
		fd.target = target;
		fd.condition = facts_condition(ff, re->dir, NULL);
		if (kind == FK_REDUNDANT) {
			for (int k = 0; k < eff.n; k++) {
				EffUse *e = &eff.v[k];
				if (e->from >= 0 || r->effp_np.v[k] <= 0)
					continue;
				for (int q = r->effp_off.v[k]; q < r->effp_off.v[k + 1]; q++)
					if (r->effp.v[q] == re->node)
						add_unique(&fd.syms, e->id);
			}
			/* the way it comes anyway: a certain one when there is */
			int other = r->cert1.v[re->node] != c ? r->cert1.v[re->node] : r->cert2.v[re->node];
			if (other < 0)
				other = r->lab1.v[re->node] != c ? r->lab1.v[re->node] : r->lab2.v[re->node];
			if (other >= 0)
				chain_to(ck, r, other, re->node, &fd.via);
		} else if (kind == FK_FORWARD) {
			for (int j = 0; j < deps[c].n; j++)
				add_unique(&fd.syms, eff.v[deps[c].v[j]].id);
		} else if (kind == FK_REPLACEABLE) {
			for (int j = 0; j < deps[c].n; j++) {
				EffUse *e = &eff.v[deps[c].v[j]];
				if (e->from >= 0)
					continue; /* a header's need, below */
				add_unique(&fd.syms, e->id);
				/* the best provider that leaves with the line */
				int h = leaving_home(ck, r, e->id, e->flags, c, file);
				if (h < 0)
					continue;
				if (h == target)
					continue; /* the public face of it is what it includes */
				add_unique(&fd.add, h);
			}
			bool refused = !fd.add.n || !add_header_needs(ck, r, c, file, target, &fd.add);
			for (int a = 0; a < fd.add.n; a++)
				if (no_include(ck, file, fd.add.v[a]))
					refused = true;
			if (refused) {
				/* what it would need instead is not to be included
				 * here: the include stays */
				findings_free_one(&fd);
				continue;
			}
		}
		if ((kind == FK_UNUSED || kind == FK_REPLACEABLE || kind == FK_FORWARD) && is_included(ck, file)) {
			IntVec leaving = {0};
			/* what may leave: reached through line c and not certainly
			 * through another */
			for (int v = 1; v < r->n; v++)
				if ((r->lab1.v[v] == c || r->lab2.v[v] == c || r->cert1.v[v] == c ||
				     r->cert2.v[v] == c) &&
				    !((r->cert1.v[v] >= 0 && r->cert1.v[v] != c) ||
				      (r->cert2.v[v] >= 0 && r->cert2.v[v] != c))) {
					int f = r->g.nodes.v[v];
					bool added = false;
					for (int a = 0; a < fd.add.n; a++)
						if (fd.add.v[a] == f)
							added = true;
					if (!added)
						vec_push(&leaving, f);
				}
			bool made = compute_fallout(ck, r, &fd, &leaving, c);
			vec_free(&leaving);
			if (!made) {
				findings_free_one(&fd); /* the include stays */
				continue;
			}
		}
		vec_push(out, fd);
	}
	/* missing (strict): an own use whose providers are all reached only
	 * through other headers */
	if (strict_missing) {
		for (int k = 0; k < eff.n; k++) {
			EffUse *e = &eff.v[k];
			if (e->from >= 0 || !(e->flags & UF_CODE) ||
			    ((e->flags & UF_TAG) && !(e->flags & UF_COMPLETE)))
				continue;
			int np = providers(ck, r, e->id, e->flags);
			if (np <= 0)
				continue;
			bool direct = false;
			for (int j = 0; j < np && !direct; j++) {
				int p = r->prov_nodes.v[j];
				int l = r->lab1.v[p];
				if (l >= 0 && (r->redges.v[l].node == p || r->redges.v[l].dir < 0))
					direct = true;
				/* a private header's public face, included directly */
				int pub = public_home(ck, file, r->g.nodes.v[p]);
				int pn = pub != r->g.nodes.v[p] ? tu_find(&r->g, pub) : -1;
				if (pn > 0 && r->lab1.v[pn] >= 0 && r->redges.v[r->lab1.v[pn]].node == pn)
					direct = true;
			}
			if (direct || is_table(ck, file))
				continue; /* an X-macro table takes no #include */
			int home = r->prov_nodes.v[0];
			if (r->lab1.v[home] < 0)
				continue;
			int target = public_home(ck, file, r->g.nodes.v[home]);
			if (no_include(ck, file, target))
				continue;
			Finding fd;
			finding_init(&fd, file, FK_MISSING);
			fd.line = e->line;
			fd.sym = e->id;
			fd.target = target;
			vec_push(&fd.syms, e->id);
			vec_push(&fd.add, fd.target);
			chain_to(ck, r, r->lab1.v[home], home, &fd.via);
			vec_push(out, fd);
		}
	}
done:
	free(far_prov);
	for (int c = 0; c < nre; c++)
		vec_free(&deps[c]);
	free(deps);
	free(uses_itself);
	free(used_node);
	free(keep);
	free(hdr_kept);
	free(open_line);
	vec_free(&eff);
	vec_free(&live);
}

/* ---- driver ---- */

/* The context a file is checked in: its own, for a file of the tree
 * being checked; the fallback for the rest, and for one that would need
 * a context the run was not prepared with (nctx of them). */
static int root_ctx(Session *s, int f, int fallback, int nctx)
{
	FileTable *ft = &s->ft;
	int c = -1;
	if ((ft->files[f].flags & F_IN_TREE) && !(ft->files[f].flags & F_EXCLUDED) && ft->files[f].facts &&
	    in_scope(s, f))
		c = session_ctx_for_file(s, f);
	return c >= 0 && c < nctx ? c : fallback;
}

/* Exact mode from a compile database reads the closures as it walks
 * them: walk every root now, in the context check_run will give it
 * (files[0]'s as the fallback, files being the file set in order), so
 * that every file the checks will meet (system headers first reached
 * under one entry's flags) is known before the symbol index is built over
 * the file table, and record the include edges the walks take: the
 * includers a header finding's fallout is computed over.  (A Kbuild tree
 * reads no system headers and has its own .cmd dependency lists; a
 * file met there only later makes the findings that would take it away
 * stay, compute_fallout.) */
static bool is_exact_root(Session *s, int f)
{
	const File *fl = &s->ft.files[f];
	return fs_in_file_set(&s->ft, f) && fl->facts && (fl->flags & F_IN_TREE) && !(fl->flags & F_EXCLUDED);
}

static void exact_walk_all(Session *s)
{
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
			continue; /* check reads it only inside closures */
		Unit u = {f, root_ctx(s, f, fallback, nctx)};
		/* a header walked on its own has a guessed command: its
		 * errors are not the tree's (a TU that includes it says so
		 * under its own) */
		diag_muted = !session_is_unit(s, f);
		session_tu(s, &u, &g);
		diag_muted = false;
		session_record_exact_edges(s, &g);
		progress_add(pr, 1);
	}
	progress_end(pr);
	tu_free(&g);
	/* a header outside the tree first met there is read inside closures
	 * only, never as a root of its own (a libc bits/ header alone is an
	 * #error) */
	s->exact_met_from = n0;
}

Check *check_new(Session *s, unsigned kinds, bool strict)
{
	Check *ck = xcalloc(1, sizeof(Check));
	ck->s = s;
	ck->kinds = kinds;
	ck->strict = strict;
	if (s->pp && s->compdb && !s->exact_met_from)
		exact_walk_all(s);
	build_index(ck);
	ck->seed_lists = xzalloc_now((size_t)ck->nnames + 1, sizeof(*ck->seed_lists));
	read_pragmas(ck);
	return ck;
}

void check_free(Check *ck)
{
	if (!ck)
		return;
	for (int i = 0; i < ck->nroots; i++)
		root_free(&ck->roots[i]);
	free(ck->roots);
	for (int f = 0; f < ck->nfiles; f++) {
		vec_free(&ck->prefixes[f]);
		vec_free(&ck->uses[f]);
		vec_free(&ck->unresolved[f]);
	}
	free(ck->uses);
	free(ck->is_paste_seed);
	free(ck->paste_lens);
	free(ck->prefixes);
	free(ck->unresolved);
	free(ck->has_unresolved);
	free(ck->need_of_name);
	free(ck->need_name);
	free(ck->cu_off);
	free(ck->cu);
	free(ck->np_off);
	free(ck->np_hdr_end);
	free(ck->np);
	free(ck->need_seed_off);
	free(ck->need_seed);
	free(ck->spell_ctx);
	free(ck->fseed_off);
	free(ck->fneed_off);
	for (int id = 0, nn = ck->nnames; id < nn; id++)
		if (ck->seed_lists[id] != no_seed_names)
			free((void *)ck->seed_lists[id]);
	free(ck->seed_lists);
	free(ck->seed_bloom);
	free(ck->nested_off);
	free(ck->nested);
	free(ck->seed_need_off);
	free(ck->seed_need);
	free(ck->fneed);
	free(ck->fseed);
	free(ck->need_off);
	free(ck->need);
	free(ck->user_off);
	free(ck->users);
	free(ck->prov_off);
	free(ck->provs);
	free(ck->prov_hdr_end);
	free(ck->seed_off);
	free(ck->seed_file);
	free(ck->is_c);
	free(ck->rev_off);
	free(ck->fwd_off);
	free(ck->fwd);
	free(ck->fprov_off);
	free(ck->fprov);
	free(ck->rev);
	free(ck->ctx_of_file);
	free(ck->public_of);
	interner_free(ck->names);
	free(ck->old2new);
	free(ck->new2old);
	free(ck);
}

/* Findings are sorted by path: each file a finding names gets the rank of
 * its path among them once (ties for equal paths), so that the sorts
 * compare integers instead of paths with long common prefixes. */
static Session *sort_session;
static int *sort_rank; /* by file id; -1 for files no finding names */

static int cmp_path(const void *a, const void *b)
{
	return strcmp(session_path(sort_session, *(const int *)a), session_path(sort_session, *(const int *)b));
}

static void rank_paths(Session *s, const FindingVec *fv)
{
	int nfiles = s->ft.nfiles;
	sort_session = s;
	sort_rank = xmalloc(((size_t)nfiles + 1) * sizeof(int));
	memset(sort_rank, -1, ((size_t)nfiles + 1) * sizeof(int));
	IntVec ids = {0};
	for (int i = 0; i < fv->n; i++) {
		int f[2] = {fv->v[i].file, fv->v[i].target};
		for (int k = 0; k < 2; k++)
			if (f[k] >= 0 && f[k] < nfiles && sort_rank[f[k]] < 0) {
				sort_rank[f[k]] = 0;
				vec_push(&ids, f[k]);
			}
	}
	if (ids.n > 1)
		qsort(ids.v, (size_t)ids.n, sizeof(int), cmp_path);
	for (int i = 0; i < ids.n; i++)
		sort_rank[ids.v[i]] = i > 0 && !cmp_path(&ids.v[i - 1], &ids.v[i]) ? sort_rank[ids.v[i - 1]] : i;
	vec_free(&ids);
}

static int cmp_finding(const void *a, const void *b)
{
	const Finding *x = a, *y = b;
	if (x->file != y->file && sort_rank[x->file] != sort_rank[y->file])
		return sort_rank[x->file] < sort_rank[y->file] ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->target != y->target && x->target >= 0 && y->target >= 0 && sort_rank[x->target] != sort_rank[y->target])
		return sort_rank[x->target] < sort_rank[y->target] ? -1 : 1;
	return x->sym - y->sym;
}

static void sort_findings(Session *s, FindingVec *fv)
{
	if (fv->n < 2)
		return;
	rank_paths(s, fv);
	qsort(fv->v, (size_t)fv->n, sizeof(Finding), cmp_finding);
	free(sort_rank);
	sort_rank = NULL;
}

/* One "missing" finding that fallout implies: fallout k of finding i
 * says its file must include add a. */
typedef struct {
	int i, k, a;
} MissingAt;

typedef struct {
	Check *ck;
	const FindingVec *out;
	const MissingAt *at;
	Finding *made; /* by index in at; syms.n == 0: none */
	int n, next;
} MissingJob;

/* The missing finding of m: the symbols the file uses from that home,
 * and its first use of them. */
static void missing_finding(Check *ck, const FindingVec *out, const MissingAt *m, Finding *fd)
{
	const Finding *from = &out->v[m->i];
	const Fallout *fo = &from->fallout.v[m->k];
	finding_init(fd, fo->file, FK_MISSING);
	fd->target = fo->add.v[m->a];
	unsigned first = 0;
	for (int q = 0; q < fo->syms.n; q++) {
		int id = fo->syms.v[q];
		bool from_home = false;
		for (int j = ck->prov_off[id]; j < ck->prov_off[id + 1] && !from_home; j++)
			from_home = ck->provs[j].kind != SK_SEED && public_home(ck, fo->file, ck->provs[j].file) == fd->target;
		if (!from_home)
			continue;
		vec_push(&fd->syms, id);
		for (int u = 0; u < ck->uses[fo->file].n; u++)
			if (ck->uses[fo->file].v[u].id == id && (!first || ck->uses[fo->file].v[u].line < first)) {
				first = ck->uses[fo->file].v[u].line;
				if (fd->sym < 0 || first)
					fd->sym = id;
			}
	}
	if (!fd->syms.n)
		return;
	if (fd->sym < 0)
		fd->sym = fd->syms.v[0];
	/* used only by an X-macro table it reads (see index_nested): the
	 * line that reads one */
	const Symbols *sy = first ? NULL : syms_of(ck, fo->file);
	for (uint32_t k = 0; sy && k < sy->npragmas; k++)
		if (sym_pragmas(sy)[k].kind == PR_NESTED && (!first || sym_pragmas(sy)[k].line < first))
			first = sym_pragmas(sy)[k].line;
	fd->line = first;
	vec_push(&fd->add, fd->target);
	/* via: the header whose finding removes it */
	vec_push(&fd->via, from->file);
	vec_push(&fd->via, (int)from->line);
	vec_push(&fd->via, fd->target);
	vec_push(&fd->via, 0);
}

static void *missing_worker(void *arg)
{
	MissingJob *job = arg;
	for (int from, to; next_files(&job->next, job->n, &from, &to);)
		for (int m = from; m < to; m++)
			missing_finding(job->ck, job->out, &job->at[m], &job->made[m]);
	return NULL;
}

/*
 * Minimal policy: a file is "missing" an include only where it relies on
 * one that another finding removes, i.e. where it is a header finding's
 * fallout.  One finding per fallout file and header, at the first use.
 */
static void missing_from_fallout(Check *ck, const int *files, int n, FindingVec *out)
{
	FileTable *ft = &ck->s->ft;
	uint8_t *checked = xcalloc((size_t)ft->nfiles + 1, 1);
	for (int i = 0; i < n; i++)
		checked[files[i]] = 1;
	/* by file: the homes already reported missing (one finding per file
	 * and home, the first header finding that makes it) */
	IntVec *reported = xcalloc((size_t)ft->nfiles + 1, sizeof(IntVec));
	VEC(MissingAt) at = {0};
	for (int i = 0; i < out->n; i++) {
		for (int k = 0; k < out->v[i].fallout.n; k++) {
			const Fallout *fo = &out->v[i].fallout.v[k];
			if (!checked[fo->file])
				continue;
			for (int a = 0; a < fo->add.n; a++) {
				IntVec *done = &reported[fo->file];
				bool dup = false;
				for (int q = 0; q < done->n && !dup; q++)
					dup = done->v[q] == fo->add.v[a];
				if (dup)
					continue;
				vec_push(done, fo->add.v[a]);
				MissingAt m = {i, k, a};
				vec_push(&at, m);
			}
		}
	}
	/* the findings themselves on all cores, then added in that order */
	MissingJob job = {ck, out, at.v, xcalloc((size_t)at.n + 1, sizeof(Finding)), at.n, 0};
	run_threads(missing_worker, &job, ck->s->opt->jobs);
	for (int m = 0; m < at.n; m++) {
		if (job.made[m].syms.n)
			vec_push(out, job.made[m]);
		else
			findings_free_one(&job.made[m]);
	}
	free(job.made);
	vec_free(&at);
	for (int f = 0; f < ft->nfiles; f++)
		vec_free(&reported[f]);
	free(reported);
	free(checked);
}

typedef struct {
	Check *ck;
	const int *files;
	int n;
	int next;
	int next_root; /* the next of ck->roots for a thread to take */
	bool headers; /* pass 1: unresolved uses; else findings */
	FindingVec out;
	pthread_mutex_t *lock;
	Progress *progress;
} Job;

static void *worker(void *arg)
{
	Job *job = arg;
	Root *rp = &job->ck->roots[__atomic_fetch_add(&job->next_root, 1, __ATOMIC_RELAXED)];
	Root r = *rp;
	FindingVec mine = {0};
	for (;;) {
		int i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
		if (i >= job->n)
			break;
		if (job->headers) {
			load_root(job->ck, &r, job->files[i], false);
			compute_unresolved(job->ck, &r, job->files[i]);
		} else {
			check_file(job->ck, &r, job->files[i], &mine);
		}
		progress_add(job->progress, 1);
	}
	pthread_mutex_lock(job->lock);
	for (int i = 0; i < mine.n; i++)
		vec_push(&job->out, mine.v[i]);
	pthread_mutex_unlock(job->lock);
	vec_free(&mine);
	*rp = r;
	return NULL;
}

static void run_parallel(Job *job, int threads)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	job->lock = &lock;
	Check *ck = job->ck;
	int need = threads < 1 ? 1 : threads > 64 ? 64 : threads; /* as run_threads */
	if (ck->nroots < need) {
		ck->roots = xrealloc(ck->roots, (size_t)need * sizeof(Root));
		for (int i = ck->nroots; i < need; i++)
			ck->roots[i] = (Root){.reach_of = -1};
		ck->nroots = need;
	}
	job->progress = progress_begin(NULL, job->headers ? "headers checked" : "files checked", job->n);
	run_threads(worker, job, threads);
	progress_end(job->progress);
}

void check_run(Check *ck, const int *files, int n, FindingVec *out)
{
	Session *s = ck->s;
	FileTable *ft = &s->ft;
	ck->fallback_ctx = n ? session_ctx_for_file(s, files[0]) : 0;
	/* the contexts the graph was prepared with; a file that would need a
	 * new one (outside the file set) is read in the fallback */
	int nctx = s->cfg.ctxs.n;
	phase("contexts");
	ck->ctx_of_file = xmalloc(((size_t)ft->nfiles + 1) * sizeof(int));
	for (int f = 0; f < ft->nfiles; f++)
		ck->ctx_of_file[f] = root_ctx(s, f, ck->fallback_ctx, nctx);
	/* every header: what it leaves to its includers */
	phase("check-headers");
	build_rev(ck);
	index_file_seeds(ck);
	if (!ck->nested_off)
		index_nested(ck);
	IntVec headers = {0};
	for (int f = 0; f < ft->nfiles; f++)
		if (ft->files[f].facts && ft->files[f].syms && is_included(ck, f) &&
		    (!s->exact_met_from || f < s->exact_met_from || (ft->files[f].flags & F_IN_TREE)))
			vec_push(&headers, f);
	Job job = {.ck = ck, .files = headers.v, .n = headers.n, .headers = true};
	run_parallel(&job, s->pp ? 1 : s->opt->jobs); /* exact walks share one table */
	vec_free(&headers);
	phase("check-needs");
	build_needers(ck);
	index_needs(ck);
	build_users(ck);
	phase("check-files");
	job = (Job){.ck = ck, .files = files, .n = n};
	run_parallel(&job, s->pp ? 1 : s->opt->jobs); /* exact walks share one table */
	*out = job.out;
	/* sorted first: the threads finish in any order, and which header
	 * finding reports a missing include must not depend on it */
	sort_findings(s, out);
	if (!ck->strict && wanted(ck, FK_MISSING)) {
		phase("missing");
		missing_from_fallout(ck, files, n, out);
		sort_findings(s, out);
	}
}

static void findings_free_one(Finding *f)
{
	vec_free(&f->syms);
	vec_free(&f->via);
	vec_free(&f->add);
	free(f->condition);
	for (int k = 0; k < f->fallout.n; k++) {
		vec_free(&f->fallout.v[k].add);
		vec_free(&f->fallout.v[k].syms);
	}
	vec_free(&f->fallout);
}

void findings_free(FindingVec *v)
{
	for (int i = 0; i < v->n; i++)
		findings_free_one(&v->v[i]);
	vec_free(v);
}

/* ---- spelling ---- */

char *check_written(Check *ck, int file, int dir)
{
	const Facts *f = ck->s->ft.files[file].facts;
	const Directive *d = &facts_dirs(f)[dir];
	const char *name = facts_name(f, d);
	if (d->flags & DF_ANGLED)
		return xasprintf("<%s>", name);
	if (d->flags & DF_QUOTED)
		return xasprintf("\"%s\"", name);
	return xasprintf("%.*s", (int)d->text_len, facts_text(f, d));
}

/* The context a file's includes are spelled in: memoized by
 * check_spelling_prepare, so that spelling may run on many threads. */
static int spell_ctx(Check *ck, int from)
{
	if (from < ck->nspell_ctx && ck->spell_ctx[from] >= 0)
		return ck->spell_ctx[from];
	return session_ctx_for_file(ck->s, from); /* may grow cfg.ctxs */
}

void check_spelling_prepare(Check *ck, const FindingVec *fv)
{
	int n = ck->s->ft.nfiles;
	ck->spell_ctx = xrealloc(ck->spell_ctx, ((size_t)n + 1) * sizeof(int));
	for (int i = ck->nspell_ctx; i <= n; i++)
		ck->spell_ctx[i] = -1;
	ck->nspell_ctx = n;
	for (int i = 0; i < fv->n; i++) {
		const Finding *f = &fv->v[i];
		ck->spell_ctx[f->file] = spell_ctx(ck, f->file);
		for (int k = 0; k < f->fallout.n; k++)
			ck->spell_ctx[f->fallout.v[k].file] = spell_ctx(ck, f->fallout.v[k].file);
	}
}

/* Whether path lies under an angle-bracket directory of from's chain. */
static bool on_chain(Check *ck, int from, const char *tk)
{
	Session *s = ck->s;
	int from_ctx = spell_ctx(ck, from);
	const Chain *ch = &s->cfg.chains.v[s->cfg.ctxs.v[from_ctx].chain];
	for (int i = ch->quote_end; i < ch->ndirs; i++) {
		const char *dk = fs_keystr(&s->ft, ch->dirs[i]);
		size_t dl = strlen(dk);
		if (strcmp(dk, ".") && !strncmp(tk, dk, dl) && tk[dl] == '/')
			return true;
	}
	return false;
}

char *check_spelling(Check *ck, int from, int target)
{
	Session *s = ck->s;
	const char *tk = fs_keystr(&s->ft, s->ft.files[target].key);
	const char *fk = fs_keystr(&s->ft, s->ft.files[from].key);
	/* a header under an include directory of the chain, included from a
	 * file under the same directory, is spelled from there, as the
	 * kernel does: <linux/sched/types.h> in <linux/sched/cputime.h> */
	int from_ctx = spell_ctx(ck, from);
	const Chain *ch0 = &s->cfg.chains.v[s->cfg.ctxs.v[from_ctx].chain];
	for (int i = ch0->quote_end; i < ch0->ndirs; i++) {
		const char *dk = fs_keystr(&s->ft, ch0->dirs[i]);
		size_t dl = strlen(dk);
		if (!strcmp(dk, ".") || strncmp(tk, dk, dl) || tk[dl] != '/' || strncmp(fk, dk, dl) || fk[dl] != '/')
			continue;
		return xasprintf("<%s>", tk + dl + 1);
	}
	/* next to the includer */
	char *fdir = path_dirname(fk);
	size_t fl = strlen(fdir);
	if (!strcmp(fdir, ".") && !strchr(tk, '/')) {
		free(fdir);
		return xasprintf("\"%s\"", tk);
	}
	/* (in a subdirectory, a header on the search chain is spelled from
	 * there: <linux/sched/types.h>, not "sched/types.h") */
	if (strcmp(fdir, ".") && !strncmp(tk, fdir, fl) && tk[fl] == '/' &&
	    (!strchr(tk + fl + 1, '/') || !on_chain(ck, from, tk))) {
		char *r = xasprintf("\"%s\"", tk + fl + 1);
		free(fdir);
		return r;
	}
	/* along the search chain: the first directory that holds it */
	from_ctx = spell_ctx(ck, from);
	const Chain *ch = &s->cfg.chains.v[s->cfg.ctxs.v[from_ctx].chain];
	for (int i = 0; i < ch->ndirs; i++) {
		const char *dk = fs_keystr(&s->ft, ch->dirs[i]);
		size_t dl = strlen(dk);
		if (!strcmp(dk, ".") || strncmp(tk, dk, dl) || tk[dl] != '/')
			continue;
		char *r = xasprintf(i < ch->quote_end ? "\"%s\"" : "<%s>", tk + dl + 1);
		free(fdir);
		return r;
	}
	/* another architecture's header: as code everywhere spells it, for
	 * the includer's own architecture to resolve (<asm/pkeys.h>) */
	const char *inc = strstr(tk, "/include/");
	if (!strncmp(tk, "arch/", 5) && inc) {
		free(fdir);
		return xasprintf("<%s>", inc + 9);
	}
	/* relative to the includer's directory */
	StrBuf sb = {0};
	sb_addc(&sb, '"');
	if (strcmp(fdir, ".")) {
		for (const char *p = fdir; *p; p++)
			if (*p == '/')
				sb_adds(&sb, "../");
		sb_adds(&sb, "../");
	}
	sb_adds(&sb, tk);
	sb_addc(&sb, '"');
	free(fdir);
	return sb.buf;
}

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

/* ---- the symbol index, built while the graph is ---- */

typedef struct {
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
} IndexAhead;

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

static void index_ahead_start(Session *s, IndexAhead *a)
{
	FileTable *ft = &s->ft;
	memset(a, 0, sizeof(*a));
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
}

/* Joins the indexing thread and hands its results over: each file's
 * symbol facts to the table, the index to check_new (which uses it when
 * it holds exactly the file set's files with symbols, see
 * adopt_prepared). */
static void index_ahead_finish(Session *s, IndexAhead *a)
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
		IndexAhead ahead;
		index_ahead_start(s, &ahead);
		phase("units");
		for (int i = 0; i < units.n; i++)
			units.v[i].ctx = session_ctx_for_file(s, units.v[i].file);
		session_prepare(s, units.v, units.n);
		index_ahead_finish(s, &ahead);
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

void check_sym_list(const Check *ck, const IntVec *syms, int max, StrBuf *out)
{
	for (int i = 0; i < syms->n && i < max; i++) {
		if (i)
			sb_adds(out, ", ");
		check_sym_text(ck, syms->v[i], out);
	}
	if (syms->n > max)
		sb_addf(out, " and %d more", syms->n - max);
}

unsigned check_parse_kinds(const char *s, unsigned dflt, const char *cmd)
{
	return kind_list_parse(s, dflt, FK_NKINDS, check_kind_name, FK_FORWARD, "forward", cmd);
}
