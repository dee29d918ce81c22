/*
 * check_root.c — one root's include closure, as the findings read it.
 * The root's own #include lines, in line order, label the closure's
 * nodes: the first two lines through which each enters (lab1, lab2), and
 * the same over the edges that are there in every configuration (cert1,
 * cert2).  Removing line c takes a node away when lab1 is c and there is
 * no lab2.  A loaded root also knows what it provides itself (a small
 * hash table: a few hundred names), which files its closure holds (a bit
 * set by file id) and its exported includes.  A Root belongs to one
 * thread and is reused from root to root: its tables are cleared by
 * epochs, not made again.
 */
#include "check_root.h"

#include <stdlib.h>
#include <string.h>

#include "check_index.h"
#include "check_pragmas.h"

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

void root_free(Root *r)
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
	vec_free(&r->part_lines);
	tu_free(&r->g2);
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

void load_root(Check *ck, Root *r, int file, bool labels)
{
	Unit u = {file, ctx_of(ck, file)};
	tu_reset(&r->g, ck->s->ft.nfiles);
	/* as in session_exact_walk: a header's own walk guesses its command */
	diag_muted = session_command_guessed(ck->s, file);
	/* a system header walked alone (for the macros it tests) is no part
	 * of the tree: its #errors are not even worth a note */
	diag_dropped = ck->s->pp && !(ck->s->ft.files[file].flags & F_IN_TREE);
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
	diag_dropped = false;
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
		const SymEntry *e = &sym_provides(sy)[k - ck->fprov_off[file]];
		if (tu_line_dead(&r->g, 0, e->line))
			continue; /* exact mode: in a branch the walk did not take */
		struct RootProv *rp = rprov_slot(r, id);
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

void chain_to(Check *ck, Root *r, int start, int node, IntVec *via)
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
