/*
 * check_impl.h — what the check rooms share: the tables of one check
 * (struct Check, filled stage by stage: the symbol index, the pragmas, the
 * headers' unresolved uses, the users and include edges the fallout reads)
 * and one thread's state for the root it reads (struct Root: its closure,
 * labels and scratch, kept from root to root).
 *
 * The check is a pipeline, one room a stage, each calling only the ones
 * before it: check_seeds (names a macro makes) and check_index (names,
 * provides and uses by id), check_pragmas (what users wrote), check_root
 * and check_providers (one root's closure, its labels, who provides a name
 * in it), check_needs (what a header leaves to its includers),
 * check_fallout (what a header's finding breaks elsewhere), check_replace
 * (what replaces a line), check_rules (the findings of one file),
 * check_missing (the missing includes that fallout implies); check_run.c
 * drives them, check_session.c opens the session they read and
 * check_spelling.c writes their includes out.
 *
 * The small queries every stage asks (is a file in the closure, does a
 * kind satisfy a use) are inline here: they run for every provider of
 * every use of every root.
 */
#ifndef HDRSLIM_CHECK_IMPL_H
#define HDRSLIM_CHECK_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "decl.h"
#include "intern.h"
#include "session.h"
#include "tu.h"
#include "util.h"

/* A file that provides a name, with the kind of provide (SymKind). */
typedef struct {
	int file;
	uint32_t line;
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

static inline UseRef use_ref(int id, unsigned flags, uint32_t line)
{
	return (UseRef){id, line < USE_LINE_MAX ? line : USE_LINE_MAX, flags};
}

/* One use of a name: file and index in its uses. */
typedef struct {
	int file, k;
} UserRef;

/* A set of name ids: open addressing over a power-of-two table (-1
 * empty) that grows before it is half full (lset_add). */
typedef struct {
	IntVec slots;
	int count;
} NameSet;

typedef struct Root Root;

/* Everything one check knows of the tree, filled stage by stage and
 * read by the stages after. */
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
	int *np;             /* index into provs of each provide that meets it */
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

/* A name's id by its interned text, -1 when it is not one of ck's names. */
static inline int find_name(const Check *ck, const char *s, size_t n)
{
	int id = intern_find(ck->names, s, n);
	return id < 0 || !ck->old2new ? id : ck->old2new[id];
}

static inline const char *name_str(const Check *ck, int id)
{
	return intern_str(ck->names, ck->new2old ? ck->new2old[id] : id);
}

static inline int name_len(const Check *ck, int id)
{
	return intern_len(ck->names, ck->new2old ? ck->new2old[id] : id);
}

static inline const Symbols *syms_of(const Check *ck, int file)
{
	return ck->s->ft.files[file].syms;
}

/* The next block [from, to) of 256 of nfiles items (file ids, or any
 * other work list) for a worker; false when done. */
static inline bool next_files(int *next, int nfiles, int *from, int *to)
{
	*from = __atomic_fetch_add(next, 256, __ATOMIC_RELAXED);
	*to = *from + 256 < nfiles ? *from + 256 : nfiles;
	return *from < nfiles;
}


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
	IntVec part_lines;   /* root lines (redges) whose readings of a provider
			      * have a provide that other readings skip */
	TuGraph g2;          /* the root walked without root line g2_line (exact
			      * mode; valid while g2_epoch == epoch) */
	int g2_line;
	uint32_t g2_epoch;
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

static inline void ivec_fill(IntVec *v, int n, int value)
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

static inline unsigned avail(const Root *r, int v)
{
	return r->lab1.v[v] >= 0 ? r->redges.v[r->lab1.v[v]].line : NEVER;
}

/* When v becomes available if root line c is removed. */
static inline unsigned avail_without(const Root *r, int v, int c)
{
	if (r->lab1.v[v] != c)
		return avail(r, v);
	return r->lab2.v[v] >= 0 ? r->redges.v[r->lab2.v[v]].line : NEVER;
}

/* The context a file is read in: its own when the session knew it
 * before preparing the graph (files of the tree), else the fallback. */
static inline int ctx_of(Check *ck, int file)
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

/* Whether a provide of this kind satisfies a use with these flags. */
static inline bool satisfies(int kind, int flags)
{
	if (kind == SK_SEED)
		return false;
	if (flags & UF_TAG)
		return (flags & UF_COMPLETE) ? kind == SK_TAG_DEF : true;
	return true;
}

/* Whether a provide of this kind meets a use with these flags: a
 * prototype use (UF_PROTO) wants a function declaration, the others what
 * satisfies says. */
static inline bool meets_use(int kind, int flags)
{
	return (flags & UF_PROTO) ? kind == SK_FUNC_DECL : satisfies(kind, flags);
}

static inline bool kinds_satisfy(unsigned kinds, int flags)
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

static inline bool root_satisfies(const Root *r, int id, int flags)
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

/* The closure node of p's file when p is there in this root: -1 when the
 * file is not in the closure, or (exact mode) p sits in a branch the
 * root's walk did not take (tmux's compat.h declares strsep() under
 * #ifndef HAVE_STRSEP: with HAVE_STRSEP defined, <string.h> is its only
 * provider). */
static inline int live_prov_node(const Root *r, const Prov *p)
{
	int node = closure_node(r, p->file);
	return node >= 0 && tu_line_dead(&r->g, node, p->line) ? -1 : node;
}

/* Whether p, there at node, is not there for certain: under an #if of
 * unknown value (union mode), or (exact mode) in a branch some reading
 * of a text read more than once skips (<stddef.h>'s offsetof() in a TU
 * where <stdio.h> reads it first under __need_size_t). */
static inline bool prov_uncertain(const Root *r, int node, const Prov *p)
{
	return p->cond || tu_line_partly_dead(&r->g, node, p->line);
}

/* Where the provides worth looking at for this root end. */
static inline int prov_end(const Check *ck, const Root *r, int id)
{
	return r->c_in_closure ? ck->prov_off[id + 1] : ck->prov_hdr_end[id];
}

/* "struct S *" outside a parameter list needs nothing in scope. */
static inline bool needs_nothing(int flags)
{
	return (flags & UF_TAG) && !(flags & (UF_COMPLETE | UF_DECLARE));
}

static inline void add_unique(IntVec *v, int x)
{
	for (int i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return;
	vec_push(v, x);
}

/* check.c: an empty finding of this kind about file (no line, target or
 * symbol), and freeing one. */
void finding_init(Finding *f, int file, int kind);
void findings_free_one(Finding *f);

static inline bool wanted(const Check *ck, int kind)
{
	return ck->kinds & (1u << kind);
}

#endif
