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

#include <stdlib.h>
#include <string.h>

#include "decl.h"
#include "tu.h"

typedef struct {
	int file;
	uint8_t kind;
	uint32_t line;
} Prov;

typedef struct {
	int id;         /* name id */
	uint8_t flags;  /* UseFlags */
	uint32_t line;
} UseRef;

struct Check {
	Session *s;
	unsigned kinds;
	bool strict;
	Interner *names;   /* symbol names; tags are stored as "struct NAME" */
	int *prov_off;     /* CSR: name id -> provs */
	Prov *provs;
	VEC(UseRef) *uses; /* by file id */
	IntVec *unresolved; /* by file id: names a header's closure cannot provide */
	bool *has_unresolved;
	/* whole-tree reverse include edges, for fallout */
	int *rev_off, *rev;
	bool rev_built;
	int nfiles;
};

static const char *const kind_names[FK_NKINDS] = {
	"unused", "replaceable", "redundant", "missing", "forward-declarable",
};

const char *check_kind_name(int kind)
{
	return kind >= 0 && kind < FK_NKINDS ? kind_names[kind] : "?";
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static void add_unique(IntVec *v, int x);

/* ---- the symbol index ---- */

static int name_id(Interner *in, const char *s, size_t n, bool tag, bool add)
{
	char buf[300];
	if (tag) {
		if (n > sizeof(buf) - 8)
			return -1;
		memcpy(buf, "struct ", 7);
		memcpy(buf + 7, s, n);
		s = buf;
		n += 7;
	}
	return add ? intern(in, s, n) : intern_find(in, s, n);
}

static void build_index(Check *ck)
{
	FileTable *ft = &ck->s->ft;
	ck->nfiles = ft->nfiles;
	IntVec all = {0};
	for (int i = 0; i < ft->nfiles; i++)
		if (ft->files[i].facts)
			vec_push(&all, i);
	phase("symbols");
	fs_symbols_all(ft, all.v, all.n, ck->s->opt->jobs);
	vec_free(&all);
	phase("symbol-index");
	ck->names = interner_new();
	/* name ids of provides, counted, then placed */
	IntVec ids = {0}, count = {0};
	for (int f = 0; f < ft->nfiles; f++) {
		const Symbols *sy = ft->files[f].syms;
		if (!sy)
			continue;
		for (uint32_t k = 0; k < sy->nprovides; k++) {
			const SymEntry *e = &sym_provides(sy)[k];
			int id = name_id(ck->names, sym_name(sy, e), e->name_len, sym_is_tag_kind(e->kind), true);
			vec_push(&ids, id);
			while (count.n <= id)
				vec_push(&count, 0);
			count.v[id]++;
		}
	}
	int nnames = intern_count(ck->names);
	ck->prov_off = xcalloc((size_t)nnames + 1, sizeof(int));
	for (int i = 0; i < nnames; i++)
		ck->prov_off[i + 1] = ck->prov_off[i] + (i < count.n ? count.v[i] : 0);
	ck->provs = xmalloc((size_t)ck->prov_off[nnames] * sizeof(Prov) + 1);
	int *fill = xcalloc((size_t)nnames + 1, sizeof(int));
	int at = 0;
	for (int f = 0; f < ft->nfiles; f++) {
		const Symbols *sy = ft->files[f].syms;
		if (!sy)
			continue;
		for (uint32_t k = 0; k < sy->nprovides; k++) {
			const SymEntry *e = &sym_provides(sy)[k];
			int id = ids.v[at++];
			ck->provs[ck->prov_off[id] + fill[id]++] = (Prov){f, e->kind, e->line};
		}
	}
	free(fill);
	vec_free(&ids);
	vec_free(&count);
	/* uses, as name ids; a name nobody provides cannot decide anything */
	ck->uses = xcalloc((size_t)ft->nfiles + 1, sizeof(*ck->uses));
	for (int f = 0; f < ft->nfiles; f++) {
		const Symbols *sy = ft->files[f].syms;
		if (!sy)
			continue;
		for (uint32_t k = 0; k < sy->nuses; k++) {
			const SymEntry *e = &sym_uses(sy)[k];
			int id = name_id(ck->names, sym_name(sy, e), e->name_len, e->flags & UF_TAG, false);
			if (id < 0 || id >= nnames)
				continue;
			UseRef r = {id, e->flags, e->line};
			vec_push(&ck->uses[f], r);
		}
	}
	ck->unresolved = xcalloc((size_t)ft->nfiles + 1, sizeof(IntVec));
	ck->has_unresolved = xcalloc((size_t)ft->nfiles + 1, 1);
}

void check_sym_text(const Check *ck, int sym, StrBuf *out)
{
	sb_add(out, intern_str(ck->names, sym), (size_t)intern_len(ck->names, sym));
}

/* ---- one root's graph ---- */

typedef struct {
	TuGraph g;
	int n;
	IntVec pred_off, pred, rpo, rpo_idx, idom, top;
	IntVec direct;    /* by node: number of #include lines of the root naming it */
	IntVec first_dir; /* by node: directive index of the root's first #include of it */
	IntVec prov_nodes;
} Root;

static int intersect(const Root *r, int a, int b)
{
	while (a != b) {
		while (r->rpo_idx.v[a] > r->rpo_idx.v[b])
			a = r->idom.v[a];
		while (r->rpo_idx.v[b] > r->rpo_idx.v[a])
			b = r->idom.v[b];
	}
	return a;
}

static void ivec_fill(IntVec *v, int n, int value)
{
	v->n = 0;
	for (int i = 0; i < n; i++)
		vec_push(v, value);
}

/* Does node a dominate node b? */
static bool dominates(const Root *r, int a, int b)
{
	while (b != a && b != 0)
		b = r->idom.v[b];
	return b == a;
}

static void analyse_graph(Root *r)
{
	TuGraph *g = &r->g;
	int n = g->nodes.n;
	r->n = n;
	/* predecessors */
	ivec_fill(&r->pred_off, n + 1, 0);
	for (int v = 0; v < n; v++)
		for (int k = g->succ_off.v[v]; k < g->succ_off.v[v + 1]; k++)
			if (g->succ.v[k] >= 0)
				r->pred_off.v[g->succ.v[k] + 1]++;
	for (int v = 0; v < n; v++)
		r->pred_off.v[v + 1] += r->pred_off.v[v];
	ivec_fill(&r->pred, r->pred_off.v[n], 0);
	IntVec fill = {0};
	ivec_fill(&fill, n, 0);
	for (int v = 0; v < n; v++)
		for (int k = g->succ_off.v[v]; k < g->succ_off.v[v + 1]; k++) {
			int w = g->succ.v[k];
			if (w >= 0)
				r->pred.v[r->pred_off.v[w] + fill.v[w]++] = v;
		}
	vec_free(&fill);
	/* reverse postorder */
	r->rpo.n = 0;
	for (int i = g->post.n - 1; i >= 0; i--)
		vec_push(&r->rpo, g->post.v[i]);
	ivec_fill(&r->rpo_idx, n, n);
	for (int i = 0; i < r->rpo.n; i++)
		r->rpo_idx.v[r->rpo.v[i]] = i;
	/* immediate dominators (Cooper, Harvey, Kennedy) */
	ivec_fill(&r->idom, n, -1);
	r->idom.v[0] = 0;
	for (bool changed = true; changed;) {
		changed = false;
		for (int i = 1; i < r->rpo.n; i++) {
			int v = r->rpo.v[i], nd = -1;
			for (int k = r->pred_off.v[v]; k < r->pred_off.v[v + 1]; k++) {
				int p = r->pred.v[k];
				if (r->idom.v[p] < 0)
					continue;
				nd = nd < 0 ? p : intersect(r, p, nd);
			}
			if (nd >= 0 && r->idom.v[v] != nd) {
				r->idom.v[v] = nd;
				changed = true;
			}
		}
	}
	/* direct includes of the root (forced ones, dir -1, are not lines) */
	ivec_fill(&r->direct, n, 0);
	ivec_fill(&r->first_dir, n, -1);
	for (int k = 0; k < g->edges.n; k++) {
		TuEdge *e = &g->edges.v[k];
		if (e->from != 0 || e->to <= 0 || e->dir < 0)
			continue;
		r->direct.v[e->to]++;
		if (r->first_dir.v[e->to] < 0 || e->dir < r->first_dir.v[e->to])
			r->first_dir.v[e->to] = e->dir;
	}
	/* top[v]: the direct include that takes v with it, or -1 */
	ivec_fill(&r->top, n, -1);
	for (int i = 1; i < r->rpo.n; i++) {
		int v = r->rpo.v[i];
		int d = r->idom.v[v];
		if (d < 0)
			continue;
		if (d != 0) {
			r->top.v[v] = r->top.v[d];
			continue;
		}
		if (r->direct.v[v] != 1)
			continue; /* reached several ways, or only via a forced include */
		bool other = false;
		for (int k = r->pred_off.v[v]; k < r->pred_off.v[v + 1] && !other; k++) {
			int p = r->pred.v[k];
			if (p != 0 && !dominates(r, v, p))
				other = true;
		}
		/* an edge from the root that is a forced include also keeps it */
		for (int k = 0; k < g->edges.n && !other; k++)
			if (g->edges.v[k].from == 0 && g->edges.v[k].to == v && g->edges.v[k].dir < 0)
				other = true;
		r->top.v[v] = other ? -1 : v;
	}
}

static void root_free(Root *r)
{
	tu_free(&r->g);
	vec_free(&r->pred_off);
	vec_free(&r->pred);
	vec_free(&r->rpo);
	vec_free(&r->rpo_idx);
	vec_free(&r->idom);
	vec_free(&r->top);
	vec_free(&r->direct);
	vec_free(&r->first_dir);
	vec_free(&r->prov_nodes);
}

/* ctx: the context to read the file in; -1 for its own (known to the
 * session before it was prepared). */
static void load_root(Check *ck, Root *r, int file, int ctx)
{
	Unit u = {file, ctx >= 0 ? ctx : session_ctx_for_file(ck->s, file)};
	tu_reset(&r->g, ck->s->ft.nfiles);
	session_tu(ck->s, &u, &r->g);
	tu_build_csr(&r->g);
	analyse_graph(r);
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

/* Nodes of the closure (not the root) that provide the name for this use,
 * best kind first.  Returns -1 when the root provides it itself, else the
 * count in r->prov_nodes. */
static int providers(Check *ck, Root *r, int id, int flags)
{
	r->prov_nodes.n = 0;
	int best = SK_NKINDS;
	for (int k = ck->prov_off[id]; k < ck->prov_off[id + 1]; k++) {
		const Prov *p = &ck->provs[k];
		if (!satisfies(p->kind, flags))
			continue;
		int node = tu_find(&r->g, p->file);
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
	return r->prov_nodes.n;
}

/* The single direct include every provider leaves with, or -1. */
static int depends_on(Check *ck, Root *r, int id, int flags)
{
	int c = -2;
	for (int k = ck->prov_off[id]; k < ck->prov_off[id + 1]; k++) {
		const Prov *p = &ck->provs[k];
		if (!satisfies(p->kind, flags))
			continue;
		int node = tu_find(&r->g, p->file);
		if (node < 0)
			continue;
		if (node == 0)
			return -1;
		int t = r->top.v[node];
		if (t < 0 || (c >= 0 && t != c))
			return -1;
		c = t;
	}
	return c >= 0 ? c : -1;
}

/*
 * A name no file in the closure provides may be made by a macro: if one of
 * its '_'-separated runs ("sched_switch" in "trace_sched_switch_enabled")
 * is a seed of a closure file, that file may be its home.  Fills
 * r->prov_nodes with such files; returns their count.
 */
static int seed_providers(Check *ck, Root *r, int id)
{
	r->prov_nodes.n = 0;
	const char *name = intern_str(ck->names, id);
	int len = intern_len(ck->names, id);
	if (len > 200 || !strncmp(name, "struct ", 7))
		return 0;
	int starts[64], ns = 0;
	for (int i = 0; i < len && ns < 63; i++)
		if (i == 0 || (name[i - 1] == '_' && name[i] != '_'))
			starts[ns++] = i;
	for (int a = 0; a < ns; a++) {
		for (int e = starts[a] + 1; e <= len; e++) {
			if (e < len && name[e] != '_')
				continue;
			int sid = intern_find(ck->names, name + starts[a], (size_t)(e - starts[a]));
			if (sid < 0 || sid == id)
				continue;
			for (int k = ck->prov_off[sid]; k < ck->prov_off[sid + 1]; k++) {
				const Prov *p = &ck->provs[k];
				if (p->kind != SK_SEED)
					continue;
				int node = tu_find(&r->g, p->file);
				if (node > 0)
					add_unique(&r->prov_nodes, node);
			}
		}
	}
	return r->prov_nodes.n;
}

/* ---- unresolved uses of headers ---- */

static void compute_unresolved(Check *ck, Root *r, int file)
{
	IntVec *out = &ck->unresolved[file];
	out->n = 0;
	for (int k = 0; k < ck->uses[file].n; k++) {
		UseRef *u = &ck->uses[file].v[k];
		if (u->flags & UF_TAG && !(u->flags & UF_COMPLETE))
			continue; /* "struct S *" needs nothing */
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

/* The chain root -> ... -> node as (file, line of the #include) pairs. */
static void chain_to(Check *ck, Root *r, int node, IntVec *via)
{
	/* BFS parents over edges, in include order */
	TuGraph *g = &r->g;
	IntVec parent = {0}, edge_of = {0}, queue = {0};
	ivec_fill(&parent, r->n, -1);
	ivec_fill(&edge_of, r->n, -1);
	parent.v[0] = 0;
	vec_push(&queue, 0);
	/* edges grouped by source */
	IntVec eoff = {0}, eidx = {0};
	ivec_fill(&eoff, r->n + 1, 0);
	for (int k = 0; k < g->edges.n; k++)
		eoff.v[g->edges.v[k].from + 1]++;
	for (int v = 0; v < r->n; v++)
		eoff.v[v + 1] += eoff.v[v];
	ivec_fill(&eidx, g->edges.n, 0);
	IntVec fill = {0};
	ivec_fill(&fill, r->n, 0);
	for (int k = 0; k < g->edges.n; k++) {
		int from = g->edges.v[k].from;
		eidx.v[eoff.v[from] + fill.v[from]++] = k;
	}
	for (int qi = 0; qi < queue.n && parent.v[node] < 0; qi++) {
		int v = queue.v[qi];
		for (int j = eoff.v[v]; j < eoff.v[v + 1]; j++) {
			TuEdge *e = &g->edges.v[eidx.v[j]];
			if (parent.v[e->to] >= 0)
				continue;
			parent.v[e->to] = v;
			edge_of.v[e->to] = eidx.v[j];
			vec_push(&queue, e->to);
		}
	}
	IntVec rev = {0};
	for (int v = node; v != 0 && parent.v[v] >= 0; v = parent.v[v])
		vec_push(&rev, v);
	for (int i = rev.n - 1; i >= 0; i--) {
		int v = rev.v[i];
		TuEdge *e = &g->edges.v[edge_of.v[v]];
		int from_file = g->nodes.v[e->from];
		const Facts *ff = ck->s->ft.files[from_file].facts;
		unsigned line = e->dir >= 0 && ff ? facts_dirs(ff)[e->dir].line : 0;
		vec_push(via, from_file);
		vec_push(via, (int)line);
	}
	vec_push(via, g->nodes.v[node]);
	vec_push(via, 0);
	vec_free(&parent);
	vec_free(&edge_of);
	vec_free(&queue);
	vec_free(&eoff);
	vec_free(&eidx);
	vec_free(&fill);
	vec_free(&rev);
}

/* The #if conditions around directive dir of f, joined with &&. */
static char *condition_of(const Facts *f, int dir)
{
	const Directive *d = facts_dirs(f);
	/* the stack of open groups: index of the branch directive we are in */
	IntVec open = {0};
	for (int i = 0; i < dir && i < (int)f->ndirs; i++) {
		switch (d[i].kind) {
		case D_IF:
		case D_IFDEF:
		case D_IFNDEF:
			vec_push(&open, i);
			break;
		case D_ELIF:
		case D_ELIFDEF:
		case D_ELIFNDEF:
		case D_ELSE:
			if (open.n)
				open.v[open.n - 1] = i;
			break;
		case D_ENDIF:
			if (open.n)
				open.n--;
			break;
		default:
			break;
		}
	}
	if (!open.n || (f->guard >= 0 && open.n == 1 && open.v[0] == f->guard)) {
		vec_free(&open);
		return NULL;
	}
	StrBuf sb = {0};
	for (int k = 0; k < open.n; k++) {
		const Directive *c = &d[open.v[k]];
		if (open.v[k] == f->guard)
			continue;
		if (sb.len)
			sb_adds(&sb, " && ");
		const char *name = facts_name(f, c);
		switch (c->kind) {
		case D_IFDEF:
			sb_addf(&sb, "defined(%s)", name);
			break;
		case D_IFNDEF:
			sb_addf(&sb, "!defined(%s)", name);
			break;
		case D_ELSE:
			sb_adds(&sb, "#else");
			break;
		default:
			sb_addf(&sb, "%s%.*s", c->kind == D_IF ? "" : "#elif ", (int)c->text_len, facts_text(f, c));
		}
	}
	vec_free(&open);
	if (!sb.len) {
		free(sb.buf);
		return NULL;
	}
	return sb.buf;
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
	Session *s = ck->s;
	int n = s->ft.nfiles;
	VEC(int) from = {0}, to = {0};
	IntVec out = {0};
	for (int f = 0; f < n; f++) {
		if (!s->ft.files[f].facts || !s->graph || !(s->ft.files[f].flags & F_IN_TREE))
			continue;
		int chain = s->cfg.ctxs.v[session_ctx_for_file(s, f)].chain;
		out.n = 0;
		graph_file_targets(s->graph, chain, f, &out);
		for (int k = 0; k < out.n; k++)
			if (out.v[k] >= 0 && out.v[k] != f) {
				vec_push(&from, f);
				vec_push(&to, out.v[k]);
			}
	}
	ck->rev_off = xcalloc((size_t)n + 1, sizeof(int));
	for (int k = 0; k < to.n; k++)
		ck->rev_off[to.v[k] + 1]++;
	for (int i = 0; i < n; i++)
		ck->rev_off[i + 1] += ck->rev_off[i];
	ck->rev = xmalloc((size_t)to.n * sizeof(int) + 1);
	int *fill = xcalloc((size_t)n + 1, sizeof(int));
	for (int k = 0; k < to.n; k++)
		ck->rev[ck->rev_off[to.v[k]] + fill[to.v[k]]++] = from.v[k];
	free(fill);
	vec_free(&from);
	vec_free(&to);
	vec_free(&out);
}

/*
 * A header's finding removes the files `leaving` from its closure.  Every
 * file that reaches the header and uses a name whose only providers it
 * could see are among them must include a provider itself.
 */
static void compute_fallout(Check *ck, Finding *fd, const IntVec *leaving)
{
	build_rev(ck);
	int n = ck->nfiles;
	uint8_t *in_leaving = xcalloc((size_t)n + 1, 1);
	for (int i = 0; i < leaving->n; i++)
		in_leaving[leaving->v[i]] = 1;
	/* files that reach the header */
	uint8_t *seen = xcalloc((size_t)n + 1, 1);
	IntVec queue = {0};
	vec_push(&queue, fd->file);
	seen[fd->file] = 1;
	for (int qi = 0; qi < queue.n; qi++) {
		int f = queue.v[qi];
		for (int k = ck->rev_off[f]; k < ck->rev_off[f + 1]; k++)
			if (!seen[ck->rev[k]]) {
				seen[ck->rev[k]] = 1;
				vec_push(&queue, ck->rev[k]);
			}
	}
	for (int qi = 1; qi < queue.n; qi++) {
		int z = queue.v[qi];
		if (in_leaving[z])
			continue;
		Fallout fo = {.file = z};
		for (int k = 0; k < ck->uses[z].n; k++) {
			UseRef *u = &ck->uses[z].v[k];
			if ((u->flags & UF_TAG) && !(u->flags & UF_COMPLETE))
				continue;
			/* providers: some leaving, none that z provides itself or
			 * includes directly outside the leaving set */
			int home = -1, best = SK_NKINDS;
			bool safe = false;
			for (int j = ck->prov_off[u->id]; j < ck->prov_off[u->id + 1] && !safe; j++) {
				const Prov *p = &ck->provs[j];
				if (!satisfies(p->kind, u->flags))
					continue;
				if (p->file == z)
					safe = true;
				else if (in_leaving[p->file] && p->kind < best)
					best = p->kind, home = p->file;
			}
			if (safe || home < 0)
				continue;
			/* still provided by something z reaches another way? z's own
			 * direct includes outside the leaving set are checked */
			const Facts *zf = ck->s->ft.files[z].facts;
			(void)zf;
			add_unique(&fo.add, home);
			add_unique(&fo.syms, u->id);
		}
		if (fo.add.n)
			vec_push(&fd->fallout, fo);
		else {
			vec_free(&fo.add);
			vec_free(&fo.syms);
		}
	}
	free(in_leaving);
	free(seen);
	vec_free(&queue);
}

static bool wanted(const Check *ck, int kind)
{
	return ck->kinds & (1u << kind);
}

/* Every name the root uses, with the unresolved uses of its closure. */
typedef struct {
	int id, flags;
	uint32_t line; /* 0: not the root's own use */
} EffUse;

static void check_file(Check *ck, Root *r, int file, FindingVec *out)
{
	FileTable *ft = &ck->s->ft;
	const Facts *ff = ft->files[file].facts;
	if (!ff)
		return;
	load_root(ck, r, file, -1);
	VEC(EffUse) eff = {0};
	for (int k = 0; k < ck->uses[file].n; k++) {
		UseRef *u = &ck->uses[file].v[k];
		EffUse e = {u->id, u->flags, u->line};
		vec_push(&eff, e);
	}
	for (int v = 1; v < r->n; v++) {
		int h = r->g.nodes.v[v];
		if (!ck->has_unresolved[h])
			continue;
		for (int k = 0; k < ck->unresolved[h].n; k++) {
			int x = ck->unresolved[h].v[k];
			EffUse e = {x >> 1, x & 1 ? UF_TAG | UF_COMPLETE : 0, 0};
			vec_push(&eff, e);
		}
	}
	/* by direct include node: names that depend on it, and whether one of
	 * them is provided by that very file */
	IntVec *deps = xcalloc((size_t)r->n, sizeof(IntVec));
	uint8_t *uses_itself = xcalloc((size_t)r->n, 1);
	for (int k = 0; k < eff.n; k++) {
		EffUse *e = &eff.v[k];
		if ((e->flags & UF_TAG) && !(e->flags & UF_COMPLETE)) {
			/* pointer use: any declaration will do, and none is needed;
			 * but a declaration only the include brings still counts */
		}
		int np = providers(ck, r, e->id, e->flags);
		if (np < 0)
			continue;
		if (np == 0) {
			/* maybe made by a macro: keep every include it could come from */
			np = seed_providers(ck, r, e->id);
			for (int j = 0; j < np; j++) {
				int node = r->prov_nodes.v[j];
				if (r->direct.v[node])
					uses_itself[node] = 1;
				if (r->top.v[node] > 0) {
					add_unique(&deps[r->top.v[node]], k);
					uses_itself[r->top.v[node]] = 1;
				}
			}
			continue;
		}
		for (int j = 0; j < np; j++) {
			int node = r->prov_nodes.v[j];
			if (r->direct.v[node])
				uses_itself[node] = 1;
		}
		int c = depends_on(ck, r, e->id, e->flags);
		if (c > 0)
			add_unique(&deps[c], k);
	}
	for (int c = 1; c < r->n; c++) {
		if (!r->direct.v[c] || r->first_dir.v[c] < 0)
			continue;
		int target = r->g.nodes.v[c];
		if (target == file)
			continue;
		if (r->direct.v[c] > 1)
			continue; /* included on several lines: each alone changes nothing */
		int dir = r->first_dir.v[c];
		Finding fd;
		int kind = -1;
		bool leaves = r->top.v[c] == c;
		if (!leaves) {
			kind = uses_itself[c] ? FK_REDUNDANT : FK_UNUSED;
		} else if (!deps[c].n) {
			kind = FK_UNUSED;
		} else {
			bool itself = false;
			for (int j = 0; j < deps[c].n && !itself; j++) {
				EffUse *e = &eff.v[deps[c].v[j]];
				providers(ck, r, e->id, e->flags);
				for (int q = 0; q < r->prov_nodes.n; q++)
					if (r->prov_nodes.v[q] == c)
						itself = true;
				/* a use only the closure's headers have (not the file's
				 * own) cannot be moved to a direct include */
				if (!e->line)
					itself = true;
			}
			if (!itself)
				kind = FK_REPLACEABLE;
		}
		if (kind < 0 || !wanted(ck, kind))
			continue;
		finding_init(&fd, file, kind);
		fd.dir = dir;
		fd.line = facts_dirs(ff)[dir].line;
		fd.target = target;
		fd.condition = condition_of(ff, dir);
		if (kind == FK_REDUNDANT) {
			/* the other way in, and what is used */
			for (int k = 0; k < eff.n; k++) {
				EffUse *e = &eff.v[k];
				if (!e->line)
					continue;
				providers(ck, r, e->id, e->flags);
				for (int q = 0; q < r->prov_nodes.n; q++)
					if (r->prov_nodes.v[q] == c)
						add_unique(&fd.syms, e->id);
			}
			/* the chain through another direct include */
			for (int k = r->pred_off.v[c]; k < r->pred_off.v[c + 1]; k++) {
				int p = r->pred.v[k];
				if (p != 0 && !dominates(r, c, p)) {
					chain_to(ck, r, p, &fd.via);
					fd.via.v[fd.via.n - 1] = (int)0;
					/* the last step: p's #include of c */
					for (int q = 0; q < r->g.edges.n; q++) {
						TuEdge *e = &r->g.edges.v[q];
						if (e->from == p && e->to == c) {
							const Facts *pf = ft->files[r->g.nodes.v[p]].facts;
							fd.via.v[fd.via.n - 1] = e->dir >= 0 && pf ? (int)facts_dirs(pf)[e->dir].line : 0;
							break;
						}
					}
					vec_push(&fd.via, target);
					vec_push(&fd.via, 0);
					break;
				}
			}
		} else if (kind == FK_REPLACEABLE) {
			for (int j = 0; j < deps[c].n; j++) {
				EffUse *e = &eff.v[deps[c].v[j]];
				add_unique(&fd.syms, e->id);
				providers(ck, r, e->id, e->flags);
				if (r->prov_nodes.n)
					add_unique(&fd.add, r->g.nodes.v[r->prov_nodes.v[0]]);
			}
		}
		if ((kind == FK_UNUSED || kind == FK_REPLACEABLE) && leaves && !ends_with(fs_keystr(ft, ft->files[file].key), ".c")) {
			IntVec leaving = {0};
			for (int v = 1; v < r->n; v++)
				if (r->top.v[v] == c)
					vec_push(&leaving, r->g.nodes.v[v]);
			/* what the finding adds stays */
			for (int a = 0; a < fd.add.n; a++)
				for (int i = 0; i < leaving.n; i++)
					if (leaving.v[i] == fd.add.v[a])
						leaving.v[i--] = leaving.v[--leaving.n];
			compute_fallout(ck, &fd, &leaving);
			vec_free(&leaving);
		}
		vec_push(out, fd);
	}
	/* missing: strict policy, the file's own uses whose home is not a
	 * direct include */
	if (ck->strict && wanted(ck, FK_MISSING)) {
		for (int k = 0; k < ck->uses[file].n; k++) {
			UseRef *u = &ck->uses[file].v[k];
			if ((u->flags & UF_TAG) && !(u->flags & UF_COMPLETE))
				continue;
			if (!(u->flags & UF_CODE))
				continue;
			int np = providers(ck, r, u->id, u->flags);
			if (np <= 0)
				continue;
			bool direct = false;
			for (int j = 0; j < np; j++)
				if (r->direct.v[r->prov_nodes.v[j]] ||
				    r->g.nodes.v[r->prov_nodes.v[j]] == file)
					direct = true;
			/* forced includes count as included */
			for (int j = 0; j < np && !direct; j++)
				for (int q = 0; q < r->g.edges.n; q++)
					if (r->g.edges.v[q].from == 0 && r->g.edges.v[q].dir < 0 &&
					    dominates(r, r->g.edges.v[q].to, r->prov_nodes.v[j]))
						direct = true;
			if (direct)
				continue;
			Finding fd;
			finding_init(&fd, file, FK_MISSING);
			fd.line = u->line;
			fd.sym = u->id;
			int home = r->prov_nodes.v[0];
			fd.target = r->g.nodes.v[home];
			vec_push(&fd.syms, u->id);
			vec_push(&fd.add, fd.target);
			chain_to(ck, r, home, &fd.via);
			vec_push(out, fd);
		}
	}
	for (int c = 0; c < r->n; c++)
		vec_free(&deps[c]);
	free(deps);
	free(uses_itself);
	vec_free(&eff);
}

/* ---- driver ---- */

Check *check_new(Session *s, unsigned kinds, bool strict)
{
	Check *ck = xcalloc(1, sizeof(Check));
	ck->s = s;
	ck->kinds = kinds;
	ck->strict = strict;
	build_index(ck);
	return ck;
}

void check_free(Check *ck)
{
	if (!ck)
		return;
	for (int f = 0; f < ck->nfiles; f++) {
		vec_free(&ck->uses[f]);
		vec_free(&ck->unresolved[f]);
	}
	free(ck->uses);
	free(ck->unresolved);
	free(ck->has_unresolved);
	free(ck->prov_off);
	free(ck->provs);
	free(ck->rev_off);
	free(ck->rev);
	interner_free(ck->names);
	free(ck);
}

static Session *sort_session;

static int cmp_finding(const void *a, const void *b)
{
	const Finding *x = a, *y = b;
	if (x->file != y->file)
		return strcmp(session_path(sort_session, x->file), session_path(sort_session, y->file));
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->kind - y->kind;
}

void check_run(Check *ck, const int *files, int n, FindingVec *out)
{
	Session *s = ck->s;
	FileTable *ft = &s->ft;
	Root r = {0};
	/* headers anywhere in the closures: what they leave to their includers */
	phase("check-headers");
	uint8_t *seen = xcalloc((size_t)ft->nfiles + 1, 1);
	IntVec todo = {0}, todo_ctx = {0};
	for (int i = 0; i < n; i++) {
		int ctx = session_ctx_for_file(s, files[i]);
		load_root(ck, &r, files[i], ctx);
		for (int v = 1; v < r.n; v++) {
			int h = r.g.nodes.v[v];
			if (!seen[h]) {
				seen[h] = 1;
				vec_push(&todo, h);
				vec_push(&todo_ctx, ctx); /* read as its first includer does */
			}
		}
	}
	for (int i = 0; i < todo.n; i++) {
		load_root(ck, &r, todo.v[i], todo_ctx.v[i]);
		compute_unresolved(ck, &r, todo.v[i]);
	}
	free(seen);
	vec_free(&todo);
	vec_free(&todo_ctx);
	phase("check-files");
	for (int i = 0; i < n; i++)
		check_file(ck, &r, files[i], out);
	root_free(&r);
	sort_session = s;
	if (out->n)
		qsort(out->v, (size_t)out->n, sizeof(Finding), cmp_finding);
}

void findings_free(FindingVec *v)
{
	for (int i = 0; i < v->n; i++) {
		Finding *f = &v->v[i];
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

char *check_spelling(Check *ck, int from, int target)
{
	Session *s = ck->s;
	const char *tk = fs_keystr(&s->ft, s->ft.files[target].key);
	const char *fk = fs_keystr(&s->ft, s->ft.files[from].key);
	/* next to the includer */
	char *fdir = path_dirname(fk);
	size_t fl = strlen(fdir);
	if (!strcmp(fdir, ".") && !strchr(tk, '/')) {
		free(fdir);
		return xasprintf("\"%s\"", tk);
	}
	if (strcmp(fdir, ".") && !strncmp(tk, fdir, fl) && tk[fl] == '/') {
		char *r = xasprintf("\"%s\"", tk + fl + 1);
		free(fdir);
		return r;
	}
	/* along the search chain: the first directory that holds it */
	const Chain *ch = &s->cfg.chains.v[s->cfg.ctxs.v[session_ctx_for_file(s, from)].chain];
	for (int i = 0; i < ch->ndirs; i++) {
		const char *dk = fs_keystr(&s->ft, ch->dirs[i]);
		size_t dl = strlen(dk);
		if (!strcmp(dk, ".") || strncmp(tk, dk, dl) || tk[dl] != '/')
			continue;
		char *r = xasprintf(i < ch->quote_end ? "\"%s\"" : "<%s>", tk + dl + 1);
		free(fdir);
		return r;
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
