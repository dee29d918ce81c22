/*
 * check_needs.c — what a header leaves to its includers.  A header that
 * uses u32 without including a provider of it relies on whoever includes
 * it: these unresolved uses, computed once per header from its own
 * closure before any file is checked, count as uses of every file that
 * includes it (an include that brings u32 to such a header is needed).
 * The lists are then indexed the way the rules read them, root after
 * root: their names numbered densely ("needs", so that per-root marks stay
 * in cache), each need's providers and seed names copied out, and by name
 * the headers that need it (for the fallout).
 */
#include "check_needs.h"

#include <stdlib.h>
#include <string.h>

#include "check_providers.h"
#include "check_seeds.h"

bool is_included(Check *ck, int file)
{
	const char *k = fs_keystr(&ck->s->ft, ck->s->ft.files[file].key);
	return !ends_with(k, ".c") || ck->rev_off[file + 1] > ck->rev_off[file];
}

/* Whether some file of the tree provides name id. */
static bool tree_provides(const Check *ck, int id)
{
	for (int k = ck->prov_off[id]; k < ck->prov_off[id + 1]; k++)
		if (ck->s->ft.files[ck->provs[k].file].flags & F_IN_TREE)
			return true;
	return false;
}

void compute_unresolved(Check *ck, Root *r, int file)
{
	IntVec *out = &ck->unresolved[file];
	out->n = 0;
	r->epoch++; /* a new root for seed_nodes */
	/* A system header that the exact walk first met (a libc bits/ header
	 * alone is an #error, so its closure is not its own): only the macros
	 * its #ifs test and the tags its prototypes name.  The macros are
	 * the configuration it is read in: a tree header that only defines
	 * them is needed before it (redis's fmacros.h defines _GNU_SOURCE for
	 * <string.h>'s strchrnul()).  A tag in a prototype must be declared
	 * before it, or the prototype makes a type of its own: tmux's
	 * compat.h includes <event2/buffer.h> for the struct evbuffer of
	 * the <event2/buffer_compat.h> it includes next. */
	const Session *s = ck->s;
	bool cond_only = s->exact_met_from && file >= s->exact_met_from && !(s->ft.files[file].flags & F_IN_TREE);
	for (int k = 0; k < ck->uses[file].n; k++) {
		UseRef *u = &ck->uses[file].v[k];
		if (needs_nothing(u->flags) || (u->flags & UF_PROTO))
			continue; /* a header's own function is its own business */
		if (cond_only && !((u->flags & UF_COND) && tree_provides(ck, u->id)) &&
		    !((u->flags & UF_TAG) && (u->flags & UF_DECLARE)))
			continue; /* (the system's own macros: its headers work in any order) */
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
		if (root_kinds(r, u->id) >> SK_SEED & 1)
			continue; /* its own macro call's argument: MAKE_HOOK(probe) */
		int np = providers(ck, r, u->id, u->flags);
		if (np == 0)
			vec_push(out, u->id << 1 | ((u->flags & UF_COMPLETE) != 0));
	}
	ck->has_unresolved[file] = true;
}

void build_needers(Check *ck)
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

void index_needs(Check *ck)
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
				vec_push(&np, k); /* the provide, for its file, line, cond */
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
