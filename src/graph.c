/*
 * graph.c — the union-mode include graph.
 *
 * Per file, one pass over its directives with a stack of three-valued
 * branch states: a branch is TRUE, FALSE or UNKNOWN; FALSE branches are
 * jumped over through the lexer's `next` links; an #elif/#else after an
 * UNKNOWN branch is itself at best UNKNOWN, and after a TRUE one FALSE.
 * The include guard's own #ifndef counts as TRUE.  Macros the file itself
 * defines at top level are known inside the same file (a computed include
 * usually names a macro defined just above it); a define under an unknown
 * branch makes its macro unknown.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

#include "macro.h"

enum { E_NEEDS_CTX = 1, E_COMPUTED_UNKNOWN = 2, E_UNCONDITIONAL = 4 };
#define FOUND_UNSET (-100)

typedef struct {
	int to;
	int dir;
	int found_at;
	uint8_t flags;
} GEdge;

typedef struct {
	/* per file id: its edges are edges[first .. first + count); first -1:
	 * not computed.  One pair per file: a TU walk reads both at once. */
	struct Span {
		int first, count;
		uint32_t lines; /* the file's lines, here for the same reason */
	} *span;
	int *found_at;
	int cap;
	/* per file: [from, to) line pairs of text that is not there in every
	 * configuration (under an #if of unknown value, or skipped) */
	int *unk_first, *unk_count;
	VEC(uint32_t) unk;
	VEC(GEdge) edges;
	/* The same edges packed for the TU walks, which are bound by memory
	 * latency: (target + 1) << 3 | flags, four bytes an edge. */
	VEC(uint32_t) packed;
	int prelude_ctx;
} Base;

static inline uint32_t pack_edge(const GEdge *e)
{
	return ((uint32_t)(e->to + 1) << 3) | (e->flags & 7);
}

typedef struct {
	int chain, file, k; /* chain -1: empty */
	int to, found_at;
} Override;

struct Graph {
	Config *cfg;
	FileTable *ft;
	IncPath *ip;
	Base *bases;
	int nbases;
	MacroTable mt;
	Override *ov;
	uint32_t ov_mask, ov_used;
	IntVec *ctx_forced; /* per ctx: resolved forced include file ids */
	int nctx_forced;
	int cur_chain, cur_file, cur_found_at;
	GraphStats stats;
	uint8_t *cycle_told; /* per file, set once by graph_tu (atomically) */
	uint8_t *has_overrides; /* per chain: any override at all */
	int nhas_overrides;
	int ncycle_told;
};

static int base_of(const Graph *g, int chain)
{
	int b = g->cfg->chains.v[chain].base;
	return b >= 0 ? b : chain;
}

static void base_grow(Graph *g, Base *b)
{
	int need = g->ft->nfiles;
	if (need <= b->cap)
		return;
	int cap = b->cap ? b->cap : 4096;
	while (cap < need)
		cap *= 2;
	b->span = xrealloc(b->span, (size_t)cap * sizeof(*b->span));
	b->found_at = xrealloc(b->found_at, (size_t)cap * sizeof(int));
	b->unk_first = xrealloc(b->unk_first, (size_t)cap * sizeof(int));
	b->unk_count = xrealloc(b->unk_count, (size_t)cap * sizeof(int));
	for (int i = b->cap; i < cap; i++) {
		b->unk_first[i] = 0;
		b->unk_count[i] = 0;
		b->span[i].first = -1;
		b->span[i].count = 0;
		b->span[i].lines = 0;
		b->found_at[i] = FOUND_UNSET;
	}
	b->cap = cap;
}

static Base *base_get(Graph *g, int chain)
{
	int b = base_of(g, chain);
	if (b >= g->nbases) {
		int n = g->cfg->chains.n;
		g->bases = xrealloc(g->bases, (size_t)n * sizeof(Base));
		memset(g->bases + g->nbases, 0, (size_t)(n - g->nbases) * sizeof(Base));
		for (int i = g->nbases; i < n; i++)
			g->bases[i].prelude_ctx = -1;
		g->nbases = n;
	}
	Base *bs = &g->bases[b];
	base_grow(g, bs);
	return bs;
}

static int has_include_cb(void *ctx, const char *name, bool angled, bool next)
{
	Graph *g = ctx;
	Resolved r = incpath_resolve(g->ip, g->cur_chain, g->cur_file, g->cur_found_at, name, angled, next);
	return r.file >= 0;
}

Graph *graph_new(Config *cfg, IncPath *ip, Interner *names)
{
	Graph *g = xcalloc(1, sizeof(*g));
	g->cfg = cfg;
	g->ft = cfg->ft;
	g->ip = ip;
	mt_init(&g->mt, names, true);
	g->mt.has_include = has_include_cb;
	g->mt.has_include_ctx = g;
	g->ov_mask = 1023;
	g->ov = xmalloc((g->ov_mask + 1) * sizeof(Override));
	for (uint32_t i = 0; i <= g->ov_mask; i++)
		g->ov[i].chain = -1;
	return g;
}

void graph_free(Graph *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->nbases; i++) {
		free(g->bases[i].span);
		free(g->bases[i].found_at);
		free(g->bases[i].unk_first);
		free(g->bases[i].unk_count);
		vec_free(&g->bases[i].unk);
		vec_free(&g->bases[i].edges);
		vec_free(&g->bases[i].packed);
	}
	for (int i = 0; i < g->nctx_forced; i++)
		vec_free(&g->ctx_forced[i]);
	free(g->ctx_forced);
	free(g->bases);
	free(g->ov);
	free(g->cycle_told);
	free(g->has_overrides);
	mt_free(&g->mt);
	free(g);
}

/* ---- overrides for derived chains ---- */

static uint32_t ov_hash(int chain, int file, int k)
{
	uint64_t x = ((uint64_t)(uint32_t)file << 32) ^ ((uint64_t)(uint32_t)chain << 16) ^ (uint32_t)k;
	x *= 0x9E3779B97F4A7C15ull;
	return (uint32_t)(x >> 32);
}

static const Override *ov_find(const Graph *g, int chain, int file, int k)
{
	for (uint32_t h = ov_hash(chain, file, k) & g->ov_mask;; h = (h + 1) & g->ov_mask) {
		const Override *o = &g->ov[h];
		if (o->chain < 0)
			return NULL;
		if (o->chain == chain && o->file == file && o->k == k)
			return o;
	}
}

static void ov_put(Graph *g, Override o)
{
	if ((g->ov_used + 1) * 2 > g->ov_mask) {
		uint32_t mask = g->ov_mask * 2 + 1;
		Override *n = xmalloc(((size_t)mask + 1) * sizeof(Override));
		for (uint32_t i = 0; i <= mask; i++)
			n[i].chain = -1;
		for (uint32_t i = 0; i <= g->ov_mask; i++) {
			if (g->ov[i].chain < 0)
				continue;
			uint32_t h = ov_hash(g->ov[i].chain, g->ov[i].file, g->ov[i].k) & mask;
			while (n[h].chain >= 0)
				h = (h + 1) & mask;
			n[h] = g->ov[i];
		}
		free(g->ov);
		g->ov = n;
		g->ov_mask = mask;
	}
	uint32_t h = ov_hash(o.chain, o.file, o.k) & g->ov_mask;
	while (g->ov[h].chain >= 0)
		h = (h + 1) & g->ov_mask;
	g->ov[h] = o;
	g->ov_used++;
}

/* ---- per-file edges ---- */

typedef struct {
	Tri cur;
	bool definitely_taken, maybe_taken;
} Frame;

static Tri eval_branch(Graph *g, const Facts *f, const Directive *d)
{
	switch (d->kind) {
	case D_ELSE:
		return TRI_TRUE;
	case D_IFDEF:
	case D_ELIFDEF:
	case D_IFNDEF:
	case D_ELIFNDEF: {
		if (d->flags & DF_BADNAME)
			return TRI_FALSE;
		Tri t = mt_defined(&g->mt, facts_name(f, d), d->name_len);
		if (t == TRI_UNKNOWN || d->kind == D_IFDEF || d->kind == D_ELIFDEF)
			return t;
		return t == TRI_TRUE ? TRI_FALSE : TRI_TRUE;
	}
	default: {
		const char *err = NULL;
		Tri t = mt_eval_if(&g->mt, facts_text(f, d), d->text_len, &err);
		return err ? TRI_UNKNOWN : t;
	}
	}
}

static void apply_prelude(Graph *g, int ctx)
{
	mt_reset(&g->mt);
	if (ctx < 0)
		return;
	mt_apply(&g->mt, g->cfg->ctxs.v[ctx].prelude);
}

/* Records where text stops (or starts) being there in every
 * configuration: unknown_depth going from 0 to more opens a range at this
 * directive's line, back to 0 closes it. */
static void note_unknown(Base *b, int file, uint32_t *from, int before, int after, uint32_t line)
{
	if (!before && after)
		*from = line;
	else if (before && !after) {
		vec_push(&b->unk, *from);
		vec_push(&b->unk, line);
		b->unk_count[file]++;
	}
}

/* A branch known to be skipped: its text is not there at all (when the
 * group is already unknown, the open range covers it). */
static void skipped_range(Base *b, int file, uint32_t from, uint32_t to, int depth)
{
	if (depth)
		return;
	vec_push(&b->unk, from);
	vec_push(&b->unk, to);
	b->unk_count[file]++;
}

static void compute_edges(Graph *g, int chain, int file)
{
	Base *b = base_get(g, chain);
	if (b->span[file].first >= 0)
		return;
	b->span[file].first = b->edges.n;
	b->span[file].count = 0;
	const Facts *f = fs_facts(g->ft, file);
	b->span[file].lines = f ? f->lines : 0;
	if (!f)
		return;
	fs_report_errors(g->ft, file);
	int bchain = base_of(g, chain);
	apply_prelude(g, b->prelude_ctx);
	int found_at = b->found_at[file] == FOUND_UNSET ? FOUND_DIRECT : b->found_at[file];
	g->cur_chain = bchain;
	g->cur_file = file;
	g->cur_found_at = found_at;
	const Chain *ch = &g->cfg->chains.v[bchain];

	VEC(Frame) st = {0};
	int unknown_depth = 0;
	const Directive *dirs = facts_dirs(f);
	int n = (int)f->ndirs;
	/* Only a computed #include needs the file's own macros; tracking
	 * every #define of the kernel's register headers would cost more
	 * than all the rest.  Without them #if sees those names as unknown,
	 * which only ever keeps more. */
	bool track_defines = false;
	for (int k = 0; k < n && !track_defines; k++)
		track_defines = (dirs[k].flags & DF_COMPUTED) && dirs[k].kind != D_DEFINE;
	int i = 0;
	b->unk_first[file] = b->unk.n;
	b->unk_count[file] = 0;
	uint32_t unk_from = 0;
	while (i < n) {
		const Directive *d = &dirs[i];
		int depth_before = unknown_depth;
		switch (d->kind) {
		case D_IF:
		case D_IFDEF:
		case D_IFNDEF: {
			Tri v = i == f->guard ? TRI_TRUE : eval_branch(g, f, d);
			Frame fr = {v, v == TRI_TRUE, v != TRI_FALSE};
			vec_push(&st, fr);
			if (v == TRI_UNKNOWN)
				unknown_depth++;
			if (v == TRI_FALSE) {
				note_unknown(b, file, &unk_from, depth_before, unknown_depth, d->line);
				skipped_range(b, file, d->line, d->next < 0 ? UINT32_MAX : dirs[d->next].line,
					      unknown_depth);
				i = d->next < 0 ? n : d->next;
				continue;
			}
			break;
		}
		case D_ELIF:
		case D_ELIFDEF:
		case D_ELIFNDEF:
		case D_ELSE: {
			if (!st.n)
				break; /* orphan: reported by the lexer */
			Frame *fr = &st.v[st.n - 1];
			Tri v;
			if (fr->definitely_taken) {
				v = TRI_FALSE;
			} else {
				v = eval_branch(g, f, d);
				if (fr->maybe_taken && v != TRI_FALSE)
					v = TRI_UNKNOWN;
			}
			if (fr->cur == TRI_UNKNOWN)
				unknown_depth--;
			fr->cur = v;
			if (v == TRI_UNKNOWN)
				unknown_depth++;
			if (v == TRI_TRUE)
				fr->definitely_taken = true;
			if (v != TRI_FALSE)
				fr->maybe_taken = true;
			if (v == TRI_FALSE) {
				note_unknown(b, file, &unk_from, depth_before, unknown_depth, d->line);
				skipped_range(b, file, d->line, d->next < 0 ? UINT32_MAX : dirs[d->next].line,
					      unknown_depth);
				i = d->next < 0 ? n : d->next;
				continue;
			}
			break;
		}
		case D_ENDIF:
			if (st.n) {
				if (st.v[st.n - 1].cur == TRI_UNKNOWN)
					unknown_depth--;
				st.n--;
			}
			break;
		case D_DEFINE:
			if (!track_defines)
				break;
			if (unknown_depth)
				mt_define_maybe(&g->mt, f, d);
			else
				mt_define(&g->mt, f, d);
			break;
		case D_UNDEF:
			if ((d->flags & DF_BADNAME) || !track_defines)
				break;
			if (unknown_depth)
				mt_forget(&g->mt, facts_name(f, d), d->name_len);
			else
				mt_undef(&g->mt, facts_name(f, d), d->name_len);
			break;
		case D_INCLUDE:
		case D_INCLUDE_NEXT: {
			GEdge e = {.to = -1, .dir = i, .found_at = -1,
				   .flags = unknown_depth ? 0 : E_UNCONDITIONAL};
			bool angled = (d->flags & DF_ANGLED) != 0;
			char *computed = NULL;
			const char *name = facts_name(f, d);
			if (d->flags & DF_COMPUTED) {
				computed = mt_expand_include(&g->mt, facts_text(f, d), d->text_len, &angled);
				if (!computed) {
					e.flags |= E_COMPUTED_UNKNOWN;
					g->stats.computed_unknown++;
					vec_push(&b->edges, e);
					vec_push(&b->packed, pack_edge(&e));
					b->span[file].count++;
					break;
				}
				name = computed;
			}
			Resolved r = incpath_resolve(g->ip, bchain, file, found_at, name, angled,
						     d->kind == D_INCLUDE_NEXT);
			free(computed);
			b = base_get(g, chain); /* resolution may have added files */
			e.to = r.file;
			e.found_at = r.found_at;
			if (r.file < 0 || r.found_at == FOUND_GENERIC || r.found_at >= ch->extra_at)
				e.flags |= E_NEEDS_CTX;
			if (r.file < 0)
				g->stats.unresolved++;
			else if (b->found_at[r.file] == FOUND_UNSET)
				b->found_at[r.file] = r.found_at;
			vec_push(&b->edges, e);
			vec_push(&b->packed, pack_edge(&e));
			b->span[file].count++;
			break;
		}
		default:
			break;
		}
		note_unknown(b, file, &unk_from, depth_before, unknown_depth, d->line);
		i++;
	}
	if (unknown_depth) /* never closed: the rest of the file */
		note_unknown(b, file, &unk_from, unknown_depth, 0, UINT32_MAX);
	vec_free(&st);
	g->stats.files_with_edges++;
	g->stats.edges += b->span[file].count;
}

int graph_file_unknown(const Graph *g, int chain, int file, const uint32_t **ranges)
{
	int bchain = base_of(g, chain);
	*ranges = NULL;
	if (bchain >= g->nbases)
		return 0;
	const Base *b = &g->bases[bchain];
	if (file >= b->cap || b->span[file].first < 0 || !b->unk_count[file])
		return 0;
	*ranges = b->unk.v + b->unk_first[file];
	return b->unk_count[file];
}

void graph_ensure(Graph *g, int chain, int file)
{
	Base *b = base_get(g, chain);
	if (b->prelude_ctx < 0) {
		for (int c = 0; c < g->cfg->ctxs.n; c++)
			if (base_of(g, g->cfg->ctxs.v[c].chain) == base_of(g, chain)) {
				b->prelude_ctx = c;
				break;
			}
	}
	compute_edges(g, chain, file);
}

static IntVec *forced_of(Graph *g, int ctx)
{
	if (ctx >= g->nctx_forced) {
		int n = g->cfg->ctxs.n;
		g->ctx_forced = xrealloc(g->ctx_forced, (size_t)n * sizeof(IntVec));
		memset(g->ctx_forced + g->nctx_forced, 0, (size_t)(n - g->nctx_forced) * sizeof(IntVec));
		for (int c = g->nctx_forced; c < n; c++) {
			Ctx *cx = &g->cfg->ctxs.v[c];
			if (cx->stdc_predef) {
				Resolved r = incpath_stdc_predef(g->ip, cx->chain);
				if (r.file >= 0)
					vec_push(&g->ctx_forced[c], r.file);
			}
			for (int i = 0; i < cx->nforced; i++) {
				Resolved r = incpath_forced(g->ip, cx->chain, cx->forced[i]);
				if (r.file < 0)
					diag(fs_keystr(g->ft, cx->forced[i]), 0, "cannot open -include file");
				else
					vec_push(&g->ctx_forced[c], r.file);
			}
		}
		g->nctx_forced = n;
	}
	return &g->ctx_forced[ctx];
}

/* By directory key: 1 when some file under that directory has, relative
 * to it, the spelling of an #include that a base chain left unresolved or
 * resolved past its -I dirs. */
static uint8_t *dirs_that_could_answer(Graph *g)
{
	FileTable *ft = g->ft;
	bool walked = false;
	for (int i = 0; i < ft->nfiles && !walked; i++)
		walked = (ft->files[i].flags & F_IN_TREE) != 0;
	if (!walked)
		return NULL; /* no listing to consult: every chain may need its walk */
	uint8_t *wanted = xcalloc((size_t)intern_count(ft->keys) + 1, 1);
	for (int bi = 0; bi < g->nbases; bi++) {
		const Base *b = &g->bases[bi];
		for (int file = 0; file < b->cap && file < ft->nfiles; file++) {
			if (b->span[file].first < 0)
				continue;
			const Facts *f = ft->files[file].facts;
			for (int k = 0; f && k < b->span[file].count; k++) {
				const GEdge *e = &b->edges.v[b->span[file].first + k];
				const Directive *d = &facts_dirs(f)[e->dir];
				if (!(e->flags & E_NEEDS_CTX) || (d->flags & DF_COMPUTED))
					continue;
				int id = intern_find(ft->keys, facts_name(f, d), d->name_len);
				if (id >= 0)
					wanted[id] = 1;
			}
		}
	}
	int nkeys = intern_count(ft->keys);
	uint8_t *answers = xcalloc((size_t)nkeys + 1, 1);
	for (int i = 0; i < ft->nfiles; i++) {
		if (!(ft->files[i].flags & F_IN_TREE))
			continue;
		const char *k = fs_keystr(ft, ft->files[i].key);
		/* every suffix after a '/' is the file's name relative to an ancestor */
		for (const char *rel = k;;) {
			int id = intern_find(ft->keys, rel, strlen(rel));
			if (id >= 0 && id < nkeys && wanted[id]) {
				int dk = rel == k ? intern_find(ft->keys, ".", 1)
						  : intern_find(ft->keys, k, (size_t)(rel - k - 1));
				if (dk >= 0 && dk < nkeys)
					answers[dk] = 1;
			}
			const char *slash = strchr(rel, '/');
			if (!slash)
				break;
			rel = slash + 1;
		}
	}
	free(wanted);
	return answers;
}

void graph_prepare(Graph *g, const Unit *units, int nunits)
{
	IntVec work = {0}; /* pairs: chain, file */
	for (int u = 0; u < nunits; u++) {
		int chain = g->cfg->ctxs.v[units[u].ctx].chain;
		Base *b = base_get(g, chain);
		if (b->prelude_ctx < 0)
			b->prelude_ctx = units[u].ctx;
		if (b->found_at[units[u].file] == FOUND_UNSET)
			b->found_at[units[u].file] = FOUND_DIRECT;
		vec_push(&work, base_of(g, chain));
		vec_push(&work, units[u].file);
		IntVec *forced = forced_of(g, units[u].ctx);
		for (int i = 0; i < forced->n; i++) {
			b = base_get(g, chain);
			if (b->found_at[forced->v[i]] == FOUND_UNSET)
				b->found_at[forced->v[i]] = FOUND_DIRECT;
			vec_push(&work, base_of(g, chain));
			vec_push(&work, forced->v[i]);
		}
	}
	while (work.n) {
		int file = work.v[--work.n];
		int chain = work.v[--work.n];
		Base *b = base_get(g, chain);
		if (b->span[file].first >= 0)
			continue;
		compute_edges(g, chain, file);
		b = base_get(g, chain);
		for (int k = 0; k < b->span[file].count; k++) {
			int to = b->edges.v[b->span[file].first + k].to;
			if (to >= 0 && b->span[to].first < 0) {
				vec_push(&work, chain);
				vec_push(&work, to);
			}
		}
	}

	phase("graph-derived");
	/* Derived chains: resolve again what their extra dirs may change.
	 * Most extra dirs (the kernel's -I $(srctree)/$(src)) hold no file
	 * any unresolved #include names, so a chain is walked only when one
	 * of its dirs could answer one. */
	uint8_t *answers = dirs_that_could_answer(g);
	uint32_t *seen = NULL;
	int seen_cap = 0;
	uint32_t epoch = 0;
	for (int c = 0; c < g->cfg->chains.n; c++) {
		const Chain *ch = &g->cfg->chains.v[c];
		if (ch->base < 0)
			continue;
		bool could = false;
		for (int i = g->cfg->chains.v[ch->base].extra_at; i < ch->extra_at && !could; i++) {
			int dk = ch->dirs[i];
			const char *d = fs_keystr(g->ft, dk);
			could = !answers || d[0] == '/' || dk >= intern_count(g->ft->keys) || answers[dk];
		}
		if (!could)
			continue;
		epoch++;
		IntVec queue = {0};
		for (int u = 0; u < nunits; u++) {
			if (g->cfg->ctxs.v[units[u].ctx].chain != c)
				continue;
			vec_push(&queue, units[u].file);
			IntVec *forced = forced_of(g, units[u].ctx);
			for (int i = 0; i < forced->n; i++)
				vec_push(&queue, forced->v[i]);
		}
		while (queue.n) {
			int file = queue.v[--queue.n];
			if (file >= seen_cap) {
				int cap = seen_cap ? seen_cap : 4096;
				while (cap <= g->ft->nfiles || cap <= file)
					cap *= 2;
				seen = xrealloc(seen, (size_t)cap * sizeof(uint32_t));
				memset(seen + seen_cap, 0, (size_t)(cap - seen_cap) * sizeof(uint32_t));
				seen_cap = cap;
			}
			if (seen[file] == epoch)
				continue;
			seen[file] = epoch;
			compute_edges(g, c, file);
			Base *b = base_get(g, c);
			int first = b->span[file].first, count = b->span[file].count;
			const Facts *f = g->ft->files[file].facts;
			for (int k = 0; k < count; k++) {
				GEdge e = b->edges.v[first + k];
				int to = e.to;
				if ((e.flags & E_NEEDS_CTX) && !(e.flags & E_COMPUTED_UNKNOWN) && f) {
					const Directive *d = &facts_dirs(f)[e.dir];
					if (!(d->flags & DF_COMPUTED)) {
						int fa = b->found_at[file] == FOUND_UNSET ? FOUND_DIRECT : b->found_at[file];
						/* Only the chain's own dirs can change the answer:
						 * they sit between the base's -I dirs and the rest. */
						const Chain *ch = &g->cfg->chains.v[c];
						const Chain *bch = &g->cfg->chains.v[ch->base];
						Resolved r;
						if (d->kind == D_INCLUDE_NEXT) {
							r = incpath_resolve(g->ip, c, file, fa, facts_name(f, d),
									    (d->flags & DF_ANGLED) != 0, true);
						} else {
							r = incpath_search_dirs(g->ip, c, bch->extra_at, ch->extra_at,
										facts_name(f, d));
							if (r.file < 0)
								r = (Resolved){e.to, e.found_at};
						}
						if (r.file != e.to) {
							ov_put(g, (Override){c, file, k, r.file, r.found_at});
							if (c >= g->nhas_overrides) {
								int n = g->cfg->chains.n;
								g->has_overrides = xrealloc(g->has_overrides, (size_t)n);
								memset(g->has_overrides + g->nhas_overrides, 0,
								       (size_t)(n - g->nhas_overrides));
								g->nhas_overrides = n;
							}
							g->has_overrides[c] = 1;
							to = r.file;
							b = base_get(g, c);
							if (r.file >= 0 && b->found_at[r.file] == FOUND_UNSET)
								b->found_at[r.file] = r.found_at;
						}
					}
				}
				if (to >= 0)
					vec_push(&queue, to);
			}
		}
		vec_free(&queue);
	}
	free(seen);
	free(answers);
	vec_free(&work);
	free(g->cycle_told);
	g->ncycle_told = g->ft->nfiles;
	g->cycle_told = xcalloc((size_t)g->ncycle_told + 1, 1);
}

typedef struct {
	int file, node, k;
	int slot; /* lean: where edge 0 of this file goes in succ */
	int n;    /* the file's edges (edge_count) */
} Visit;
typedef struct {
	VEC(Visit) v;
	VEC(uint8_t) on; /* by node: on the current path */
	bool lean;
} VisitStack;

static int edge_count(const Base *b, int file)
{
	return file < b->cap && b->span[file].first >= 0 ? b->span[file].count : 0;
}

/* A newly found node: on the path, and in lean mode its successor slots. */
static void push_visit(VisitStack *st, TuGraph *tg, const Base *b, int file, int node, int extra)
{
	Visit v = {file, node, 0, 0, edge_count(b, file)};
	if (st->lean) {
		vec_push(&tg->lines, file < b->cap ? b->span[file].lines : 0);
		int total = tg->succ.n;
		int n = extra + v.n;
		vec_grow(&tg->succ, total + n);
		for (int i = 0; i < n; i++)
			tg->succ.v[total + i] = -1;
		tg->succ.n = total + n;
		vec_push(&tg->succ_off, total);
		v.slot = total + extra;
		if (tg->want_slots) {
			vec_grow(&tg->succ_dir, total + n);
			vec_grow(&tg->succ_cond, total + n);
			for (int i = 0; i < extra; i++) {
				tg->succ_dir.v[total + i] = -1; /* forced */
				tg->succ_cond.v[total + i] = 0;
			}
			const GEdge *e = n > extra ? &b->edges.v[b->span[file].first] : NULL;
			for (int i = extra; i < n; i++, e++) {
				tg->succ_dir.v[total + i] = e->dir;
				tg->succ_cond.v[total + i] = !(e->flags & E_UNCONDITIONAL);
			}
			tg->succ_dir.n = tg->succ_cond.n = total + n;
		}
	}
	vec_push(&st->v, v);
	vec_grow(&st->on, node + 1);
	while (st->on.n <= node)
		st->on.v[st->on.n++] = 0;
	st->on.v[node] = 1;
}

/* An unconditional edge back to a file on the current path that has no
 * guard of any kind: whenever the path is live, the preprocessor recurses
 * until it gives up.  Reported once per file per run. */
static void check_cycle(const Graph *g, const VisitStack *st, int from_file, const GEdge *e,
			int to_node, int to_file)
{
	if (to_node >= st->on.n || !st->on.v[to_node] || !(e->flags & E_UNCONDITIONAL))
		return;
	if (to_file >= g->ncycle_told)
		return;
	/* the recursion stops at any file of the cycle that has a guard */
	for (int i = st->v.n - 1; i >= 0; i--) {
		const Facts *f = g->ft->files[st->v.v[i].file].facts;
		if (!f || f->guard >= 0 || f->pragma_once || f->loose_guard)
			return;
		if (st->v.v[i].node == to_node)
			break;
	}
	if (__atomic_exchange_n(&g->cycle_told[to_file], 1, __ATOMIC_RELAXED))
		return;
	const Facts *ff = g->ft->files[from_file].facts;
	diag(fs_keystr(g->ft, g->ft->files[from_file].key), ff ? facts_dirs(ff)[e->dir].line : 0,
	     "include cycle: %s includes itself again and has no include guard",
	     fs_keystr(g->ft, g->ft->files[to_file].key));
}

/* Depth-first, in include order, from the node on top of the stack. */
static void dfs(const Graph *g, int chain, TuGraph *tg, VisitStack *vs)
{
	int bchain = base_of(g, chain);
	const Base *b = &g->bases[bchain];
	/* most derived chains change nothing: no lookups for them */
	bool derived = chain != bchain && chain < g->nhas_overrides && g->has_overrides[chain];
	while (vs->v.n) {
		Visit *top = &vs->v.v[vs->v.n - 1];
		if (top->k >= top->n) {
			vs->on.v[top->node] = 0;
			if (vs->lean)
				vec_push(&tg->post, top->node);
			vs->v.n--;
			continue;
		}
		int k = top->k++;
		int ei = b->span[top->file].first + k;
		uint32_t pe = b->packed.v[ei];
		int to = (int)(pe >> 3) - 1, flags = (int)(pe & 7);
		if (derived && (flags & E_NEEDS_CTX)) {
			const Override *o = ov_find(g, chain, top->file, k);
			if (o)
				to = o->to;
		}
		if (to < 0) {
			if (!vs->lean || tg->want_slots) {
				TuMissing m = {top->file, b->edges.v[ei].dir, NULL, tg->nodes.n,
					       (flags & E_UNCONDITIONAL) != 0};
				vec_push(&tg->missing, m);
			}
			continue;
		}
		int added;
		int from = top->node, from_file = top->file, slot = top->slot + k;
		int tn = tu_node(tg, to, &added);
		if (vs->lean)
			tg->succ.v[slot] = tn;
		else
			tu_edge_cond(tg, from, tn, b->edges.v[ei].dir, !(flags & E_UNCONDITIONAL));
		if (added && edge_count(b, to) == 0) {
			/* a leaf finishes at once: no frame to push and pop */
			if (vs->lean) {
				vec_push(&tg->lines, to < b->cap ? b->span[to].lines : 0);
				vec_push(&tg->succ_off, tg->succ.n);
				vec_push(&tg->post, tn);
			}
		} else if (added)
			push_visit(vs, tg, b, to, tn, 0);
		else if ((flags & E_UNCONDITIONAL) && tn < vs->on.n && vs->on.v[tn])
			check_cycle(g, vs, from_file, &b->edges.v[ei], tn, to);
	}
}

void graph_tu(const Graph *g, const Unit *u, TuGraph *tg, bool lean)
{
	int chain = g->cfg->ctxs.v[u->ctx].chain;
	const Base *b = &g->bases[base_of(g, chain)];
	tu_reset(tg, g->ft->nfiles);
	tu_node(tg, u->file, NULL);
	VisitStack st = {.lean = lean};
	const IntVec *forced = &g->ctx_forced[u->ctx];
	/* the root's successors: forced -include files first, then its own */
	if (lean) {
		push_visit(&st, tg, b, u->file, 0, forced->n);
		st.v.n = 0; /* slots reserved; the root is walked last */
	}
	for (int i = 0; i < forced->n; i++) {
		int added;
		int node = tu_node(tg, forced->v[i], &added);
		if (lean)
			tg->succ.v[i] = node;
		else
			tu_edge(tg, 0, node, -1);
		if (!added)
			continue;
		push_visit(&st, tg, b, forced->v[i], node, 0);
		dfs(g, chain, tg, &st);
	}
	Visit root = {u->file, 0, 0, forced->n, edge_count(b, u->file)};
	vec_push(&st.v, root);
	vec_grow(&st.on, 1);
	if (!st.on.n)
		st.on.n = 1;
	st.on.v[0] = 1;
	dfs(g, chain, tg, &st);
	if (lean)
		vec_push(&tg->succ_off, tg->succ.n);
	tg->dfs_preorder = true;
	vec_free(&st.v);
	vec_free(&st.on);
}

int graph_file_targets(const Graph *g, int chain, int file, IntVec *out)
{
	return graph_file_edges(g, chain, file, out, NULL);
}

int graph_file_edges(const Graph *g, int chain, int file, IntVec *out, IntVec *dirs)
{
	out->n = 0;
	if (dirs)
		dirs->n = 0;
	int bchain = base_of(g, chain);
	if (bchain >= g->nbases)
		return 0;
	const Base *b = &g->bases[bchain];
	if (file >= b->cap || b->span[file].first < 0)
		return 0;
	for (int k = 0; k < b->span[file].count; k++) {
		const GEdge *e = &b->edges.v[b->span[file].first + k];
		int to = e->to;
		if (chain != bchain && (e->flags & E_NEEDS_CTX)) {
			const Override *o = ov_find(g, chain, file, k);
			if (o)
				to = o->to;
		}
		vec_push(out, to);
		if (dirs)
			vec_push(dirs, e->dir);
	}
	return out->n;
}

GraphStats graph_stats(const Graph *g)
{
	return g->stats;
}
