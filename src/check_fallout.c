/*
 * check_fallout.c — what a header's finding breaks elsewhere.  Removing an
 * #include line from a header takes files out of the closure of every
 * file that reaches the header; each of those that uses a name whose only
 * providers leave must then include a provider itself, and so must a
 * header that relies on its includers for such a name (check_needs).
 * That list is the finding's fallout: fix applies it with the removal, and
 * the minimal policy's missing findings are read off it (check_missing).
 * A finding whose fallout cannot be placed (it would land in an X-macro
 * table the file itself reads, or close an include cycle) is not made.
 */
#include "check_fallout.h"

#include <stdlib.h>
#include <string.h>

#include "check_index.h"
#include "check_pragmas.h"

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

void build_users(Check *ck)
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
		if (!meets_use(p->kind, u->flags))
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
void index_nested(Check *ck)
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

bool is_table(const Check *ck, int z)
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

bool compute_fallout(Check *ck, Root *r, Finding *fd, const IntVec *leaving, int c)
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
