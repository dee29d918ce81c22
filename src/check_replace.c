/*
 * check_replace.c — what replaces a removable #include line: the
 * providers that leave with it (leaving_home), and, where the line brings
 * an umbrella header (git's cache.h), the providers that the headers
 * which stay relied on the umbrella for, included first.  Kept apart from
 * the rules: it is the one place a finding reasons about a closure that
 * does not exist yet, the root's once the line is replaced.
 */
#include "check_replace.h"

#include <stdlib.h>
#include <string.h>

#include "check_pragmas.h"

int leaving_home(Check *ck, Root *r, int id, int flags, int c, int file)
{
	int home = -1, best = 0;
	for (int j = ck->prov_off[id]; j < ck->prov_off[id + 1]; j++) {
		const Prov *p = &ck->provs[j];
		if (!meets_use(p->kind, flags))
			continue;
		int node = live_prov_node(r, p);
		if (node <= 0 || r->lab1.v[node] != c)
			continue;
		bool cert = r->cert1.v[node] == c || r->cert2.v[node] == c;
		int score = (cert ? 4 * SK_NKINDS : 0) + (prov_uncertain(r, node, p) ? 0 : 2 * SK_NKINDS) +
			    (SK_NKINDS - p->kind);
		if (home < 0 || score > best)
			home = p->file, best = score;
	}
	return home < 0 ? -1 : public_home(ck, file, home);
}

/* One that defines a tag is not an umbrella: a use of the tag reached
 * through members (st->readers[0]->name) is one the symbol facts do
 * not see (git's reftable/reader.h). */
bool umbrella_like(Check *ck, int target)
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
 * needed.
 */
bool add_header_needs(Check *ck, Root *r, int c, int file, int target, IntVec *adds)
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
					int node = live_prov_node(r, p);
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
