/*
 * check_providers.c — who provides a name in one root's closure.  For a
 * use (a name, and flags: a complete type wanted, a prototype, a test in
 * an #if), the closure's nodes whose provides satisfy it: read off the
 * name's provider list against the closure's bit set, or, for a need of a
 * closure header (check_needs), off that need's copied-out list.  For a
 * name no closure file provides, the closure's files with a seed that may
 * make it (check_seeds), from a per-root table of the closure's seeds.
 * The nodes land in r->prov_nodes, where the rules read them.
 */
#include "check_providers.h"

#include <stdlib.h>
#include <string.h>

#include "check_seeds.h"

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

int providers(Check *ck, Root *r, int id, int flags)
{
	r->prov_nodes.n = 0;
	if (root_satisfies(r, id, flags))
		return -1;
	int best = SK_NKINDS;
	for (int k = ck->prov_off[id], end = prov_end(ck, r, id); k < end; k++) {
		const Prov *p = &ck->provs[k];
		if (!satisfies(p->kind, flags))
			continue;
		int node = live_prov_node(r, p);
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

const int *seed_nodes(Check *ck, Root *r, int sid, int *n)
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

int seed_providers(Check *ck, Root *r, int id)
{
	int ns;
	const int *sids = seed_names(ck, r, id, &ns);
	return seed_providers_of(ck, r, sids, ns);
}

int need_seed_providers(Check *ck, Root *r, int need)
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

/* A provide there in some of its node's readings only (exact mode): the
 * root lines that bring the readings that have it, which use_depends
 * counts as lines that bring it for certain. */
static void note_partial(Root *r, int node, const Prov *p)
{
	if (!tu_line_partly_dead(&r->g, node, p->line))
		return;
	int dirs[16];
	int k = tu_live_readings(&r->g, node, p->line, dirs, 16);
	for (int i = 0; i < k; i++)
		for (int c = 0; c < r->redges.n && dirs[i] >= 0; c++)
			if (r->redges.v[c].dir == dirs[i])
				add_unique(&r->part_lines, c);
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

int all_providers(Check *ck, Root *r, int id, int flags, unsigned line)
{
	r->prov_nodes.n = 0;
	r->prov_cert.n = 0;
	r->part_lines.n = 0;
	/* the root's own under an #if of unknown value: the headers that
	 * provide it too are needed where that branch is not taken (ring_buffer.c
	 * defines sched_clock_stable() under #ifndef
	 * CONFIG_HAVE_UNSTABLE_SCHED_CLOCK; <linux/sched/clock.h> declares it
	 * otherwise) */
	bool own_cond = false;
	if (root_satisfies(r, id, flags) && (!line || root_first_line(r, id) < line)) {
		if (root_kinds(r, id) & RK_CERTAIN)
			return -1;
		own_cond = true;
	}
	for (int k = ck->prov_off[id], end = prov_end(ck, r, id); k < end; k++) {
		const Prov *p = &ck->provs[k];
		if (!meets_use(p->kind, flags))
			continue;
		int node = live_prov_node(r, p);
		if (node == 0 && line && root_first_line(r, id) >= line)
			continue; /* the root's own, below the use */
		if (node < 0 || (node == 0 && ((flags & UF_PROTO) || own_cond)))
			continue;
		if (node == 0)
			return -1;
		add_provider_node(r, node, !prov_uncertain(r, node, p));
		note_partial(r, node, p);
	}
	if (own_cond && !r->prov_nodes.n)
		return -1;
	return with_exporters(r);
}

int need_providers(Check *ck, Root *r, int need)
{
	r->prov_nodes.n = 0;
	r->prov_cert.n = 0;
	r->part_lines.n = 0;
	int q = need >> 1, flags = need & 1 ? UF_TAG | UF_COMPLETE : 0;
	bool own_cond = false; /* as all_providers */
	if (r->rneed && r->rneed[q] == r->repoch && kinds_satisfy(r->rneed_kinds[q], flags)) {
		if (r->rneed_kinds[q] & RK_CERTAIN)
			return -1;
		own_cond = true;
	}
	int end = r->c_in_closure ? ck->np_off[need + 1] : ck->np_hdr_end[need];
	for (int k = ck->np_off[need]; k < end; k++) {
		const Prov *p = &ck->provs[ck->np[k]];
		int node = live_prov_node(r, p);
		if (node < 0 || (node == 0 && own_cond))
			continue;
		if (node == 0)
			return -1;
		add_provider_node(r, node, !prov_uncertain(r, node, p));
		note_partial(r, node, p);
	}
	if (own_cond && !r->prov_nodes.n)
		return -1;
	return with_exporters(r);
}

void seed_lists_free(Check *ck)
{
	for (int id = 0, nn = ck->nnames; id < nn; id++)
		if (ck->seed_lists[id] != no_seed_names)
			free((void *)ck->seed_lists[id]);
	free(ck->seed_lists);
}
