/*
 * slim.c — the model of a header alone and the plan search over it (see
 * slim.h).  Every candidate is tried on the model itself and rolled back
 * (a snapshot of the node weights and of the edges' state), so the lines
 * a plan predicts are computed exactly as the lines measured now: the
 * closure's files, each with what is left of it.
 *
 * The plan never assumes more than the model shows: a cut is planned only
 * when no file on the near side uses a name that only the far side
 * provides (else the includes that fix that file would bring the far side
 * back), and a cut line of a file the plan has not split must be one
 * that `check` finds removable, so that `series` will find it too.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "intern.h"
#include "slim.h"

enum { CANDIDATES = 48, MAX_MOVED_UNITS = 40, MAX_CHAIN_PASSES = 8 };

/* ---------------------------------------------------------------- names */

static int provide_id(SlimModel *m, const Symbols *sy, const SymEntry *p)
{
	if (p->kind == SK_SEED)
		return -1;
	StrBuf b = {0};
	if (sym_is_tag_kind(p->kind))
		sb_addc(&b, '\1');
	sb_add(&b, sym_name(sy, p), p->name_len);
	int id = intern(m->names, b.buf, b.len);
	free(b.buf);
	return id;
}

int slim_use_id(SlimModel *m, const Symbols *sy, const SymEntry *u)
{
	StrBuf b = {0};
	if (u->flags & UF_TAG)
		sb_addc(&b, '\1');
	sb_add(&b, sym_name(sy, u), u->name_len);
	int id = intern_find(m->names, b.buf, b.len);
	free(b.buf);
	return id;
}

static const Symbols *node_syms(SlimModel *m, int v)
{
	int f = m->nodes.v[v].file;
	return f >= 0 ? m->s->ft.files[f].syms : NULL;
}

static char *node_abs(SlimModel *m, int v)
{
	const char *rel = m->nodes.v[v].rel;
	return rel[0] == '/' ? xstrdup(rel) : path_join(m->s->ft.root, rel);
}

/* ---------------------------------------------------------------- open, measure */

void slim_open(SlimModel *m, Session *s, int header, PpCount *pp)
{
	memset(m, 0, sizeof(*m));
	m->s = s;
	m->names = interner_new();
	Unit u = {header, session_ctx_for_file(s, header)};
	session_tu(s, &u, &m->g);
	int n = m->g.nodes.n;
	fs_symbols_all(&s->ft, m->g.nodes.v, n, s->opt->jobs > 0 ? s->opt->jobs : 1);
	if (pp) {
		m->pp = *pp;
		memset(pp, 0, sizeof(*pp));
		m->have_pp = true;
	}
	for (int v = 0; v < n; v++) {
		int f = m->g.nodes.v[v];
		const Facts *fc = fs_facts(&s->ft, f);
		SlimNode nd = {.file = f, .rel = xstrdup(session_path(s, f))};
		nd.editable = nd.rel[0] != '/';
		nd.lines = fc ? fc->lines : 0;
		vec_push(&m->nodes, nd);
		char *abs = node_abs(m, v);
		m->nodes.v[v].pp = m->have_pp ? (int64_t)ppcount_file(&m->pp, abs) : 0;
		free(abs);
		net_add_node(&m->net);
		IntVec ids = {0};
		const Symbols *sy = s->ft.files[f].syms;
		for (uint32_t k = 0; sy && k < sy->nprovides; k++)
			vec_push(&ids, provide_id(m, sy, &sym_provides(sy)[k]));
		vec_push(&m->node_provides, ids);
	}
	for (int e = 0; e < m->g.edges.n; e++) {
		const TuEdge *te = &m->g.edges.v[e];
		bool cuttable = te->dir >= 0 && te->from != te->to && m->nodes.v[te->from].editable;
		net_add_edge(&m->net, te->from, te->to, e, cuttable);
	}
	m->ck = check_new(s, (1u << FK_UNUSED) | (1u << FK_FORWARD) | (1u << FK_REDUNDANT) | (1u << FK_REPLACEABLE),
			  false);
	IntVec mine = {0};
	for (int v = 0; v < n; v++)
		if (m->nodes.v[v].editable)
			vec_push(&mine, m->nodes.v[v].file);
	check_run(m->ck, mine.v, mine.n, &m->findings);
	vec_free(&mine);
}

static void plan_step_free(PlanStep *st)
{
	free(st->header);
	free(st->other);
	for (int i = 0; i < st->syms.n; i++)
		free(st->syms.v[i]);
	vec_free(&st->syms);
}

static void round_free(PlanRound *r)
{
	for (int i = 0; i < r->steps.n; i++)
		plan_step_free(&r->steps.v[i]);
	vec_free(&r->steps);
	free(r->what);
}

static void node_free(SlimNode *nd)
{
	free(nd->rel);
	vec_free(&nd->gone);
	vec_free(&nd->provides);
}

void slim_close(SlimModel *m)
{
	for (int v = 0; v < m->nodes.n; v++)
		node_free(&m->nodes.v[v]);
	vec_free(&m->nodes);
	for (int v = 0; v < m->node_provides.n; v++)
		vec_free(&m->node_provides.v[v]);
	vec_free(&m->node_provides);
	for (int i = 0; i < m->plan.n; i++)
		round_free(&m->plan.v[i]);
	vec_free(&m->plan);
	for (int i = 0; i < m->blocked.n; i++)
		free(m->blocked.v[i]);
	vec_free(&m->blocked);
	findings_free(&m->findings);
	check_free(m->ck);
	net_free(&m->net);
	tu_free(&m->g);
	ppcount_free(&m->pp);
	interner_free(m->names);
}

/* What the compiler printed that no node of the graph accounts for
 * (gcc's own stdc-predef.h, <built-in>), and the headers it came from. */
static void pp_rest(SlimModel *m, int64_t *lines, int *headers)
{
	int64_t sum = 0;
	int found = 0;
	for (int v = 0; v < m->g.nodes.n; v++) {
		char *abs = node_abs(m, v);
		int64_t n = (int64_t)ppcount_file(&m->pp, abs);
		bool in = false;
		for (int i = 0; i < m->pp.files.n && !in; i++)
			in = !strcmp(m->pp.files.v[i].path, abs);
		if (!in) {
			char *real = realpath(abs, NULL);
			for (int i = 0; real && i < m->pp.files.n && !in; i++)
				in = !strcmp(m->pp.files.v[i].path, real);
			free(real);
		}
		free(abs);
		sum += n;
		found += in && v;
	}
	*lines = (int64_t)m->pp.total - sum;
	*headers = m->pp.headers - found;
}

void slim_measure(SlimModel *m, const IntVec *without, int64_t *lines, int64_t *pp, int *headers)
{
	char *seen = net_reach(&m->net, without, -1);
	int64_t l = 0, p = 0;
	int h = 0, gone_pp_headers = 0;
	for (int v = 0; v < m->net.n; v++) {
		if (seen[v]) {
			l += m->nodes.v[v].lines;
			p += m->nodes.v[v].pp;
			h += v > 0;
		} else if (v < m->g.nodes.n && m->have_pp && m->nodes.v[v].pp > 0) {
			gone_pp_headers++;
		}
	}
	/* the #include lines that go, each directive once */
	for (int i = 0; without && i < without->n; i++) {
		const NetEdge *e = &m->net.edges.v[without->v[i]];
		bool again = false;
		for (int k = 0; k < i && !again; k++) {
			const NetEdge *o = &m->net.edges.v[without->v[k]];
			again = o->from == e->from && o->tag >= 0 && e->tag >= 0 &&
				m->g.edges.v[o->tag].dir == m->g.edges.v[e->tag].dir;
		}
		if (!again && seen[e->from] && l)
			l--;
	}
	if (m->have_pp) {
		int64_t rest;
		int rest_h;
		pp_rest(m, &rest, &rest_h);
		p += rest;
		(void)rest_h;
	}
	*lines = l;
	if (pp)
		*pp = p;
	if (headers)
		*headers = h;
	(void)gone_pp_headers;
	free(seen);
}

void slim_brings(SlimModel *m, bool pp, int64_t *brings)
{
	char *all = net_reach(&m->net, NULL, -1);
	int64_t total = 0;
	for (int v = 0; v < m->net.n; v++)
		if (all[v])
			total += pp ? m->nodes.v[v].pp : m->nodes.v[v].lines;
	brings[0] = total;
	for (int x = 1; x < m->net.n; x++) {
		brings[x] = 0;
		if (!all[x])
			continue;
		char *seen = net_reach(&m->net, NULL, x);
		int64_t left = 0;
		for (int v = 0; v < m->net.n; v++)
			if (seen[v])
				left += pp ? m->nodes.v[v].pp : m->nodes.v[v].lines;
		brings[x] = total - left;
		free(seen);
	}
	free(all);
}

/* ---------------------------------------------------------------- snapshots */

typedef struct {
	int nodes, edges;
	char *gone;
	int64_t *lines, *pp;
	int *ngone;
	bool *carved;
} Snap;

static void snap_take(SlimModel *m, Snap *sn)
{
	sn->nodes = m->nodes.n;
	sn->edges = m->net.edges.n;
	sn->gone = xmalloc((size_t)sn->edges + 1);
	for (int e = 0; e < sn->edges; e++)
		sn->gone[e] = m->net.edges.v[e].gone;
	sn->lines = xmalloc(((size_t)sn->nodes + 1) * sizeof(int64_t));
	sn->pp = xmalloc(((size_t)sn->nodes + 1) * sizeof(int64_t));
	sn->ngone = xmalloc(((size_t)sn->nodes + 1) * sizeof(int));
	sn->carved = xmalloc(((size_t)sn->nodes + 1) * sizeof(bool));
	for (int v = 0; v < sn->nodes; v++) {
		sn->lines[v] = m->nodes.v[v].lines;
		sn->pp[v] = m->nodes.v[v].pp;
		sn->ngone[v] = m->nodes.v[v].gone.n;
		sn->carved[v] = m->nodes.v[v].carved;
	}
}

static void snap_restore(SlimModel *m, Snap *sn)
{
	for (int v = sn->nodes; v < m->nodes.n; v++)
		node_free(&m->nodes.v[v]);
	m->nodes.n = sn->nodes;
	m->net.n = sn->nodes;
	m->net.edges.n = sn->edges;
	for (int e = 0; e < sn->edges; e++)
		m->net.edges.v[e].gone = sn->gone[e];
	for (int v = 0; v < sn->nodes; v++) {
		m->nodes.v[v].lines = sn->lines[v];
		m->nodes.v[v].pp = sn->pp[v];
		m->nodes.v[v].gone.n = sn->ngone[v];
		m->nodes.v[v].carved = sn->carved[v];
	}
}

static void snap_free(Snap *sn)
{
	free(sn->gone);
	free(sn->lines);
	free(sn->pp);
	free(sn->ngone);
	free(sn->carved);
}

/* ---------------------------------------------------------------- one candidate */

/* Per name id: 1 provided on the near side, 2 on the far side; for a
 * tag, 4 and 8 where it is defined (what a complete use needs: a
 * forward declaration does not do). */
uint8_t *slim_name_sides(SlimModel *m, const char *stays, const char *reached)
{
	uint8_t *side = xcalloc((size_t)intern_count(m->names) + 1, 1);
	for (int v = 0; v < m->nodes.n; v++) {
		if (!reached[v])
			continue;
		uint8_t bit = stays[v] ? 1 : 2;
		const SlimNode *nd = &m->nodes.v[v];
		if (nd->file < 0) {
			/* a header the plan made holds definitions only */
			for (int i = 0; i < nd->provides.n; i++)
				side[nd->provides.v[i]] |= bit | bit << 2;
			continue;
		}
		const Symbols *sy = node_syms(m, v);
		const IntVec *ids = &m->node_provides.v[v];
		for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
			const SymEntry *p = &sym_provides(sy)[k];
			if (ids->v[k] >= 0 && !span_has(&nd->gone, (int)p->line))
				side[ids->v[k]] |= p->kind == SK_TAG_DECL ? bit : bit | bit << 2;
		}
	}
	return side;
}

static int64_t spans_lines(const SpanVec *sp)
{
	int64_t n = 0;
	for (int i = 0; i < sp->n; i++)
		n += sp->v[i].last - sp->v[i].first + 1;
	return n;
}

static int64_t spans_pp(SlimModel *m, int v, const SpanVec *sp)
{
	if (!m->have_pp)
		return 0;
	char *abs = node_abs(m, v);
	int64_t n = 0;
	for (int i = 0; i < sp->n; i++)
		n += (int64_t)ppcount_span(&m->pp, abs, sp->v[i].first, sp->v[i].last);
	free(abs);
	return n;
}

static bool exists_in_tree(SlimModel *m, const char *rel)
{
	char *abs = path_join(m->s->ft.root, rel);
	struct stat st;
	bool yes = stat(abs, &st) == 0;
	free(abs);
	for (int v = m->g.nodes.n; v < m->nodes.n && !yes; v++)
		yes = !strcmp(m->nodes.v[v].rel, rel);
	return yes;
}

static char *stem_of(const char *rel)
{
	const char *slash = strrchr(rel, '/');
	const char *b = slash ? slash + 1 : rel;
	const char *dot = strrchr(b, '.');
	return xstrndup(b, dot ? (size_t)(dot - b) : strlen(b));
}

/* Where the definitions of F that need G go: F's own directory of
 * sub-headers (include/linux/sched/ for sched.h) when it has one, else
 * beside F; named after G. */
static char *sub_header_for(SlimModel *m, const char *f_rel, const char *g_rel)
{
	char *fstem = stem_of(f_rel), *gstem = stem_of(g_rel);
	char *dir = path_dirname(f_rel);
	char *sub = strcmp(dir, ".") ? xasprintf("%s/%s", dir, fstem) : xstrdup(fstem);
	char *abs = path_join(m->s->ft.root, sub);
	struct stat st;
	char *rel = stat(abs, &st) == 0 && S_ISDIR(st.st_mode) ? xasprintf("%s/%s.h", sub, gstem)
							      : xasprintf("%s_%s.h", sub, gstem);
	free(abs);
	free(sub);
	free(dir);
	free(fstem);
	free(gstem);
	return rel;
}

static char *types_header_for(const char *p_rel)
{
	char *stem = stem_of(p_rel), *dir = path_dirname(p_rel);
	char *rel = strcmp(dir, ".") ? xasprintf("%s/%s_types.h", dir, stem) : xasprintf("%s_types.h", stem);
	free(stem);
	free(dir);
	return rel;
}

/* The carve unit of e holding line n, or -1. */
static int unit_at(const SpanVec *units, int n)
{
	for (int i = 0; i < units->n; i++)
		if (units->v[i].first <= n && n <= units->v[i].last)
			return i;
	return -1;
}

/* The provide of sy that is a body (inline function or macro) in the
 * unit, or NULL. */
static const SymEntry *body_in_unit(const Symbols *sy, const Span *u)
{
	for (uint32_t k = 0; k < sy->nprovides; k++) {
		const SymEntry *p = &sym_provides(sy)[k];
		if ((int)p->line >= u->first && (int)p->line <= u->last &&
		    (p->kind == SK_FUNC_DEF || p->kind == SK_MACRO))
			return p;
	}
	return NULL;
}

static void blocked_reason(char **why, const char *fmt, const char *a, const char *b)
{
	if (*why)
		return;
	*why = xasprintf(fmt, a, b);
}

/* The far-side names (side 2) the text of lines [first, last] of e
 * spells as identifiers, outside comments and literals, into ids (once
 * each).  Symbol facts record a name once per file, at its first use;
 * this is how the other places that name it are found. */
static void unit_far_names(SlimModel *m, const EditFile *e, const Span *sp, const uint8_t *side, IntVec *ids)
{
	if (sp->first < 1 || sp->last > e->nlines)
		return;
	const char *p = e->data + e->line_off[sp->first - 1], *end = e->data + e->line_off[sp->last];
	while (p < end) {
		if (p[0] == '/' && p + 1 < end && p[1] == '*') {
			const char *q = p + 2;
			while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 2;
		} else if (p[0] == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (*p == '"' || *p == '\'') {
			char quote = *p++;
			while (p < end && *p != quote && *p != '\n')
				p += *p == '\\' && p + 1 < end ? 2 : 1;
			p++;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *q = p;
			while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
				q++;
			int id = intern_find(m->names, p, (size_t)(q - p));
			if (id >= 0 && (side[id] & 3) == 2) {
				bool have = false;
				for (int i = 0; i < ids->n && !have; i++)
					have = ids->v[i] == id;
				if (!have)
					vec_push(ids, id);
			}
			p = q;
		} else if (isdigit((unsigned char)*p)) {
			while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '.'))
				p++;
		} else {
			p++;
		}
	}
}

static bool int_in(const IntVec *v, int x)
{
	for (int i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return true;
	return false;
}

/* The bodies that move take their far-side names with them; every other
 * body of the file that names one of those moves too (and what it names
 * in turn), and a use of one outside a body keeps the include: false,
 * with *why. */
static bool gather_far_bodies(SlimModel *m, const Symbols *sy, const EditFile *e, const SpanVec *units,
			      const uint8_t *side, const SpanVec *gone, IntVec *move_units, const char *rel,
			      char **why)
{
	IntVec taken = {0};
	for (int i = 0; i < move_units->n; i++)
		unit_far_names(m, e, &units->v[move_units->v[i]], side, &taken);
	bool ok = true, grew = true;
	while (grew && ok) {
		grew = false;
		for (int ui = 0; ui < units->n && ok; ui++) {
			const Span *sp = &units->v[ui];
			if (int_in(move_units, ui) || span_has(gone, sp->first))
				continue;
			IntVec here = {0};
			unit_far_names(m, e, sp, side, &here);
			bool names_taken = false;
			for (int i = 0; i < here.n && !names_taken; i++)
				names_taken = int_in(&taken, here.v[i]);
			if (names_taken && body_in_unit(sy, sp)) {
				vec_push(move_units, ui);
				for (int i = 0; i < here.n; i++)
					if (!int_in(&taken, here.v[i]))
						vec_push(&taken, here.v[i]);
				grew = true;
			} else if (names_taken) {
				char *at = xasprintf("%s:%d", rel, sp->first);
				blocked_reason(why, "%s uses outside an inline or macro body what the moving ones take from the far side%s",
					       at, "");
				free(at);
				ok = false;
			}
			vec_free(&here);
		}
	}
	vec_free(&taken);
	return ok;
}

static void step_push(PlanRound *r, int kind, const char *header, const char *other)
{
	vec_push(&r->steps, ((PlanStep){.kind = kind, .header = xstrdup(header), .other = xstrdup(other)}));
}

static const Finding *finding_for(const FindingVec *fv, int file, int dir)
{
	for (int i = 0; i < fv->n; i++)
		if (fv->v[i].file == file && fv->v[i].dir == dir)
			return &fv->v[i];
	return NULL;
}

/* Where a header made from v's text gets name id: the file of v's
 * closure in the tree that defines it (the path first in order when
 * several do), as series writes it; else, for a name from outside the
 * tree, the one of v's own includes that brings it with the smallest
 * closure.  -1 when none does. */
static int include_for_name(SlimModel *m, int v, int id)
{
	char *seen = xcalloc((size_t)m->net.n + 1, 1);
	IntVec q = {0};
	vec_push(&q, v);
	seen[v] = 1;
	int home = -1;
	for (int h = 0; h < q.n; h++) {
		int x = q.v[h];
		const Symbols *xsy = node_syms(m, x);
		const SlimNode *xn = &m->nodes.v[x];
		bool gives = false;
		for (uint32_t k = 0; x != v && xsy && k < xsy->nprovides && !gives; k++)
			gives = m->node_provides.v[x].v[k] == id && sym_provides(xsy)[k].kind != SK_TAG_DECL &&
				!span_has(&xn->gone, (int)sym_provides(xsy)[k].line);
		for (int i = 0; x != v && xn->file < 0 && i < xn->provides.n && !gives; i++)
			gives = xn->provides.v[i] == id;
		if (gives && xn->editable && (home < 0 || strcmp(xn->rel, m->nodes.v[home].rel) < 0))
			home = x;
		for (int i = 0; i < m->net.edges.n; i++) {
			const NetEdge *ne = &m->net.edges.v[i];
			if (ne->from == x && !ne->gone && !seen[ne->to]) {
				seen[ne->to] = 1;
				vec_push(&q, ne->to);
			}
		}
	}
	vec_free(&q);
	free(seen);
	if (home >= 0)
		return home;
	/* outside the tree: the direct include that brings it */
	int best = -1, best_size = 0;
	for (int e = 0; e < m->net.edges.n; e++) {
		const NetEdge *ne = &m->net.edges.v[e];
		if (ne->from != v || ne->gone || ne->to == v)
			continue;
		char *s2 = xcalloc((size_t)m->net.n + 1, 1);
		IntVec q2 = {0};
		vec_push(&q2, ne->to);
		s2[ne->to] = 1;
		bool found = false;
		for (int h = 0; h < q2.n; h++) {
			int x = q2.v[h];
			const Symbols *xsy = node_syms(m, x);
			for (uint32_t k = 0; xsy && k < xsy->nprovides && !found; k++)
				found = m->node_provides.v[x].v[k] == id;
			for (int i = 0; i < m->net.edges.n; i++) {
				const NetEdge *o = &m->net.edges.v[i];
				if (o->from == x && !o->gone && !s2[o->to]) {
					s2[o->to] = 1;
					vec_push(&q2, o->to);
				}
			}
		}
		if (found && (best < 0 || q2.n < best_size))
			best = ne->to, best_size = q2.n;
		vec_free(&q2);
		free(s2);
	}
	return best;
}

typedef struct {
	int provider;      /* node */
	IntVec ids;        /* names it must give */
	int node;          /* the types header made for it, -1 before */
} TypesNeed;

/* The types header for provider p: P's definitions of the names move to
 * a new header P includes where they were.  Returns its node, or -1 with
 * *why. */
static int make_types(SlimModel *m, PlanRound *r, int p, const IntVec *ids, char **why)
{
	SlimNode *pn = &m->nodes.v[p];
	const Symbols *sy = node_syms(m, p);
	if (!sy || !pn->editable) {
		blocked_reason(why, "%s%s is not in the tree", pn->rel, "");
		return -1;
	}
	char *trel = types_header_for(pn->rel);
	if (exists_in_tree(m, trel)) {
		blocked_reason(why, "%s exists: move %s's types there by hand", trel, pn->rel);
		free(trel);
		return -1;
	}
	StrVec names = {0};
	for (int i = 0; i < ids->n; i++) {
		const char *nm = intern_str(m->names, ids->v[i]);
		if (nm[0] == '\1')
			nm++;
		if (!strvec_has(&names, nm))
			vec_push(&names, xstrdup(nm));
	}
	char *abs = node_abs(m, p), *err = NULL;
	EditFile e;
	SpanVec spans = {0};
	bool ok = edit_load(&e, abs, false, &err) && carve_spans(&e, sy, names.v, names.n, &spans, &err);
	free(abs);
	int t = -1;
	if (!ok) {
		blocked_reason(why, "%s%s", err ? err : "cannot carve", "");
		free(err);
	}
	/* what the moved text needs: nothing of P itself */
	IntVec in_spans = {0}, targets = {0};
	StrVec declared = {0};
	const IntVec *pids = &m->node_provides.v[p];
	for (uint32_t k = 0; ok && k < sy->nprovides; k++)
		if (span_has(&spans, (int)sym_provides(sy)[k].line) && pids->v[k] >= 0)
			vec_push(&in_spans, pids->v[k]);
	for (uint32_t k = 0; ok && k < sy->nuses; k++) {
		const SymEntry *u = &sym_uses(sy)[k];
		if (!span_has(&spans, (int)u->line))
			continue;
		int id = slim_use_id(m, sy, u);
		bool inside = false;
		for (int i = 0; id >= 0 && i < in_spans.n && !inside; i++)
			inside = in_spans.v[i] == id;
		if (inside)
			continue;
		if ((u->flags & UF_TAG) && !(u->flags & UF_COMPLETE)) {
			/* series declares every tag the text uses through pointers
			 * (whether or not a header defines it) */
			char *nm = xstrndup(sym_name(sy, u), u->name_len);
			if (!strvec_has(&declared, nm))
				vec_push(&declared, nm);
			else
				free(nm);
			continue;
		}
		if (id < 0)
			continue;
		bool own = false;
		for (uint32_t j = 0; j < sy->nprovides && !own; j++)
			own = pids->v[j] == id && !span_has(&pn->gone, (int)sym_provides(sy)[j].line);
		if (own) {
			char *nm = xstrndup(sym_name(sy, u), u->name_len);
			blocked_reason(why, "the types need %s's own %s", pn->rel, nm);
			free(nm);
			ok = false;
			break;
		}
		int w = include_for_name(m, p, id);
		bool have = false;
		for (int i = 0; i < targets.n && !have; i++)
			have = targets.v[i] == w;
		if (w >= 0 && !have)
			vec_push(&targets, w);
	}
	/* a header that is mostly these definitions already is the types
	 * header: include it as it is */
	if (ok && 2 * spans_lines(&spans) > pn->lines) {
		blocked_reason(why, "%s is mostly the types %s needs", pn->rel, "the header");
		ok = false;
	}
	int declares = declared.n;
	for (int i = 0; i < declared.n; i++)
		free(declared.v[i]);
	vec_free(&declared);
	if (ok) {
		int64_t moved = spans_lines(&spans), moved_pp = spans_pp(m, p, &spans);
		t = net_add_node(&m->net);
		SlimNode tn = {.file = -1, .rel = trel, .editable = true};
		trel = NULL;
		/* the guard (3 lines and 2 at the end), the includes and the
		 * declarations, each group with a blank line after it */
		tn.lines = 5 + moved + (targets.n ? targets.n + 1 : 0) + (declares ? declares + 1 : 0);
		tn.pp = moved_pp + declares;
		for (int i = 0; i < in_spans.n; i++)
			vec_push(&tn.provides, in_spans.v[i]);
		vec_push(&m->nodes, tn);
		pn = &m->nodes.v[p];
		for (int i = 0; i < spans.n; i++)
			vec_push(&pn->gone, spans.v[i]);
		pn->lines -= moved - 1;
		pn->pp -= moved_pp;
		pn->carved = true;
		net_add_edge(&m->net, p, t, -1, false);
		for (int i = 0; i < targets.n; i++)
			net_add_edge(&m->net, t, targets.v[i], -1, false);
		step_push(r, PK_TYPES, pn->rel, m->nodes.v[t].rel);
		for (int i = 0; i < names.n; i++)
			vec_push(&r->steps.v[r->steps.n - 1].syms, xstrdup(names.v[i]));
	}
	if (e.data || e.path)
		edit_free(&e);
	for (int i = 0; i < names.n; i++)
		free(names.v[i]);
	vec_free(&names);
	vec_free(&spans);
	vec_free(&in_spans);
	vec_free(&targets);
	free(trel);
	return t;
}

/* Moves the units of F (node f) that need the far side into a sub-header
 * named after g, with what only they use; false with *why. */
static bool make_split(SlimModel *m, PlanRound *r, int f, int g, IntVec *units_moved, const SpanVec *units,
		       EditFile *e, char **why)
{
	SlimNode *fn = &m->nodes.v[f];
	const Symbols *sy = node_syms(m, f);
	const IntVec *fids = &m->node_provides.v[f];
	char *moved_unit = xcalloc((size_t)units->n + 1, 1);
	for (int i = 0; i < units_moved->n; i++)
		moved_unit[units_moved->v[i]] = 1;
	/* what stays must not use what moves (else it would need the
	 * sub-header, which needs it); what only moved bodies use goes too */
	for (bool grew = true; grew;) {
		grew = false;
		for (uint32_t k = 0; k < sy->nuses; k++) {
			const SymEntry *u = &sym_uses(sy)[k];
			int ui = unit_at(units, (int)u->line);
			if (ui < 0 || span_has(&fn->gone, (int)u->line))
				continue;
			int id = slim_use_id(m, sy, u);
			for (uint32_t j = 0; j < sy->nprovides; j++) {
				const SymEntry *p = &sym_provides(sy)[j];
				int pi = unit_at(units, (int)p->line);
				if (fids->v[j] != id || pi < 0 || pi == ui || moved_unit[ui] == moved_unit[pi])
					continue;
				if (!moved_unit[ui]) {
					/* a unit that stays uses a moved name */
					if (body_in_unit(sy, &units->v[ui])) {
						moved_unit[ui] = 1, grew = true;
					} else {
						char *nm = xstrndup(sym_name(sy, u), u->name_len);
						blocked_reason(why, "%s keeps a declaration that uses %s", fn->rel, nm);
						free(nm);
						free(moved_unit);
						return false;
					}
				}
			}
		}
	}
	/* prototypes only moved bodies use move with them */
	for (uint32_t j = 0; j < sy->nprovides; j++) {
		const SymEntry *p = &sym_provides(sy)[j];
		int pi = unit_at(units, (int)p->line);
		if (pi < 0 || moved_unit[pi] || p->kind != SK_FUNC_DECL || span_has(&fn->gone, (int)p->line))
			continue;
		bool by_moved = false, by_staying = false;
		for (uint32_t k = 0; k < sy->nuses; k++) {
			const SymEntry *u = &sym_uses(sy)[k];
			int ui = unit_at(units, (int)u->line);
			if (ui < 0 || ui == pi || slim_use_id(m, sy, u) != fids->v[j] || span_has(&fn->gone, (int)u->line))
				continue;
			if (moved_unit[ui])
				by_moved = true;
			else
				by_staying = true;
		}
		if (by_moved && !by_staying)
			moved_unit[pi] = 1;
	}
	StrVec names = {0};
	int nunits = 0;
	for (int i = 0; i < units->n; i++) {
		if (!moved_unit[i])
			continue;
		nunits++;
		/* every name the unit declares (a whole #if group moves whole) */
		for (uint32_t j = 0; j < sy->nprovides; j++) {
			const SymEntry *q = &sym_provides(sy)[j];
			if ((int)q->line < units->v[i].first || (int)q->line > units->v[i].last || q->kind == SK_SEED ||
			    q->kind == SK_TAG_DECL)
				continue;
			char *nm = xstrndup(sym_name(sy, q), q->name_len);
			if (!strvec_has(&names, nm))
				vec_push(&names, nm);
			else
				free(nm);
		}
	}
	free(moved_unit);
	if (nunits > MAX_MOVED_UNITS || !names.n) {
		blocked_reason(why, "%s: too much to move%s", fn->rel, "");
		for (int i = 0; i < names.n; i++)
			free(names.v[i]);
		vec_free(&names);
		return false;
	}
	SpanVec spans = {0};
	char *err = NULL;
	if (!carve_spans(e, sy, names.v, names.n, &spans, &err)) {
		blocked_reason(why, "%s%s", err, "");
		free(err);
		for (int i = 0; i < names.n; i++)
			free(names.v[i]);
		vec_free(&names);
		return false;
	}
	char *sub = sub_header_for(m, fn->rel, m->nodes.v[g].rel);
	if (exists_in_tree(m, sub)) {
		blocked_reason(why, "%s exists already%s", sub, "");
		free(sub);
		for (int i = 0; i < names.n; i++)
			free(names.v[i]);
		vec_free(&names);
		vec_free(&spans);
		return false;
	}
	fn->lines -= spans_lines(&spans);
	fn->pp -= spans_pp(m, f, &spans);
	fn->carved = true;
	for (int i = 0; i < spans.n; i++)
		vec_push(&fn->gone, spans.v[i]);
	step_push(r, PK_SPLIT, fn->rel, sub);
	for (int i = 0; i < names.n; i++)
		vec_push(&r->steps.v[r->steps.n - 1].syms, names.v[i]);
	vec_free(&names);
	step_push(r, PK_UNBACK, fn->rel, sub);
	/* the sub-header is reached by nobody in the closure: no node */
	free(sub);
	vec_free(&spans);
	return true;
}

/* A near file that is not cut but uses what only the far side provides:
 * allowed only in inline function bodies, which move (with what else of
 * the file names what they take) to a sub-header of the file named after
 * x, whose back-include then goes, as the cut files' bodies do.  This is
 * how a cut deep in the closure is chained to the headers above it that
 * use the far side in their own inlines.  False with *why. */
static bool chain_near_file(SlimModel *m, int v, int x, const uint8_t *side, PlanRound *r, char **why)
{
	SlimNode *vn = &m->nodes.v[v];
	const Symbols *sy = node_syms(m, v);
	IntVec far_uses = {0};
	for (uint32_t k = 0; sy && k < sy->nuses; k++) {
		const SymEntry *u = &sym_uses(sy)[k];
		int id = slim_use_id(m, sy, u);
		if (id < 0 || span_has(&vn->gone, (int)u->line))
			continue;
		/* a name in a macro body binds where the macro is expanded; an
		 * #if of a far-side name changes meaning when it goes */
		if ((slim_side(side, id, u->flags) == 2 && !(u->flags & UF_MACRO_BODY)) ||
		    ((u->flags & UF_COND) && (side[id] & 2)))
			vec_push(&far_uses, (int)k);
	}
	if (!far_uses.n)
		return true;
	bool ok = vn->editable;
	EditFile e = {0};
	SpanVec units = {0};
	IntVec move_units = {0};
	char *abs = node_abs(m, v), *err = NULL;
	if (ok && !edit_load(&e, abs, false, &err)) {
		blocked_reason(why, "%s%s", err, "");
		free(err);
		free(abs);
		vec_free(&far_uses);
		return false;
	}
	free(abs);
	if (ok)
		carve_units(&e, &units);
	for (int i = 0; i < far_uses.n; i++) {
		const SymEntry *u = &sym_uses(sy)[far_uses.v[i]];
		int ui = ok ? unit_at(&units, (int)u->line) : -1;
		const SymEntry *body = ui >= 0 ? body_in_unit(sy, &units.v[ui]) : NULL;
		if (!body || body->kind != SK_FUNC_DEF || (u->flags & UF_COND)) {
			char *nm = xstrndup(sym_name(sy, u), u->name_len);
			blocked_reason(why, "%s uses %s from the far side", vn->rel, nm);
			free(nm);
			ok = false;
			break;
		}
		if (!int_in(&move_units, ui))
			vec_push(&move_units, ui);
	}
	if (ok)
		ok = gather_far_bodies(m, sy, &e, &units, side, &vn->gone, &move_units, vn->rel, why);
	if (ok)
		ok = make_split(m, r, v, x, &move_units, &units, &e, why);
	vec_free(&far_uses);
	vec_free(&move_units);
	vec_free(&units);
	if (vn->editable)
		edit_free(&e);
	return ok;
}

/* Flags with 2 in `side` the names that the split steps of r, from step
 * `from` on, move; true when one was not flagged yet. */
static bool mark_split_names(SlimModel *m, const PlanRound *r, int from, uint8_t *side)
{
	bool grew = false;
	for (int i = from; i < r->steps.n; i++) {
		const PlanStep *st = &r->steps.v[i];
		for (int k = 0; st->kind == PK_SPLIT && k < st->syms.n; k++) {
			int id = intern_find(m->names, st->syms.v[k], strlen(st->syms.v[k]));
			if (id >= 0 && (side[id] & 3) != 2)
				side[id] = 2 | 8, grew = true;
		}
	}
	return grew;
}

/* After a round's splits, no file left on the near side may spell a name
 * that moved into a sub-header: it would have to include that header,
 * and the far side with it.  Names in macro bodies count here (the macro
 * is expanded in the files that include it, which do not include the
 * sub-header).  False with *why. */
static bool moved_names_unused(SlimModel *m, const PlanRound *r, char **why)
{
	uint8_t *mark = xcalloc((size_t)intern_count(m->names) + 1, 1);
	bool any = mark_split_names(m, r, 0, mark), ok = true;
	char *near = any ? net_reach(&m->net, NULL, -1) : NULL;
	for (int v = 0; any && ok && v < m->g.nodes.n; v++) {
		const Symbols *sy = node_syms(m, v);
		if (!near[v] || !sy)
			continue;
		/* a file that never names them (facts list each name once) */
		bool names = false;
		for (uint32_t k = 0; k < sy->nuses && !names; k++) {
			int id = slim_use_id(m, sy, &sym_uses(sy)[k]);
			names = id >= 0 && mark[id];
		}
		for (uint32_t k = 0; k < sy->nprovides && !names; k++)
			names = m->node_provides.v[v].v[k] >= 0 && mark[m->node_provides.v[v].v[k]];
		if (!names)
			continue;
		char *abs = node_abs(m, v), *err = NULL;
		EditFile e;
		if (!edit_load(&e, abs, false, &err)) {
			blocked_reason(why, "%s%s", err, "");
			free(err);
			free(abs);
			ok = false;
			break;
		}
		free(abs);
		SpanVec units = {0};
		carve_units(&e, &units);
		for (int ui = 0; ui < units.n && ok; ui++) {
			if (span_has(&m->nodes.v[v].gone, units.v[ui].first))
				continue;
			IntVec ids = {0};
			unit_far_names(m, &e, &units.v[ui], mark, &ids);
			if (ids.n) {
				char *at = xasprintf("%s:%d", m->nodes.v[v].rel, units.v[ui].first);
				blocked_reason(why, "%s uses %s, which moves to a sub-header", at, intern_str(m->names, ids.v[0]));
				free(at);
				ok = false;
			}
			vec_free(&ids);
		}
		vec_free(&units);
		edit_free(&e);
	}
	free(near);
	free(mark);
	return ok;
}

/* New headers first, then back-include removals, then include lines. */
static int step_rank(int kind)
{
	return kind <= PK_UNBACK ? kind : PK_DROP;
}

typedef struct {
	unsigned line;
	int to;
} LineEdge;

static int cmp_line_edge(const void *a, const void *b)
{
	const LineEdge *x = a, *y = b;
	return x->line != y->line ? (x->line < y->line ? -1 : 1) : x->to - y->to;
}

/* For cut file f, per name id, the first line of f by which a near-side
 * provider is in place once the cut lines are gone: f's own provide, or
 * the first of f's other #include lines that reaches one.  0: never.  A
 * name used before that line needs the cut line in include order, even
 * where the near side provides it later (how check decides too). */
static uint32_t *near_in_time(SlimModel *m, int f, const IntVec *cut, const char *stays)
{
	uint32_t *first = xcalloc((size_t)intern_count(m->names) + 1, sizeof(uint32_t));
	const Symbols *sy = node_syms(m, f);
	const SlimNode *fn = &m->nodes.v[f];
	for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
		int id = m->node_provides.v[f].v[k];
		unsigned line = sym_provides(sy)[k].line;
		if (id >= 0 && !span_has(&fn->gone, (int)line) && (!first[id] || line < first[id]))
			first[id] = line;
	}
	const Facts *fc = fn->file >= 0 ? fs_facts(&m->s->ft, fn->file) : NULL;
	VEC(LineEdge) out = {0};
	for (int e = 0; e < m->net.edges.n; e++) {
		const NetEdge *ne = &m->net.edges.v[e];
		if (ne->from != f || ne->gone || int_in(cut, e))
			continue;
		int dir = ne->tag >= 0 ? m->g.edges.v[ne->tag].dir : -1;
		/* a forced include comes first; one a plan adds stands where the cut line was */
		unsigned line = dir >= 0 && fc ? facts_dirs(fc)[dir].line : 1;
		vec_push(&out, ((LineEdge){line, ne->to}));
	}
	if (out.n > 1)
		qsort(out.v, (size_t)out.n, sizeof(LineEdge), cmp_line_edge);
	char *seen = xcalloc((size_t)m->net.n + 1, 1);
	seen[f] = 1;
	IntVec q = {0};
	for (int i = 0; i < out.n; i++) {
		q.n = 0;
		net_reach_more(&m->net, out.v[i].to, cut, seen, &q);
		for (int h = 0; h < q.n; h++) {
			int v = q.v[h];
			const SlimNode *vn = &m->nodes.v[v];
			const Symbols *vs = node_syms(m, v);
			for (uint32_t k = 0; stays[v] && vs && k < vs->nprovides; k++) {
				int id = m->node_provides.v[v].v[k];
				if (id >= 0 && !first[id] && !span_has(&vn->gone, (int)sym_provides(vs)[k].line))
					first[id] = out.v[i].line;
			}
			for (int k = 0; stays[v] && vn->file < 0 && k < vn->provides.n; k++)
				if (!first[vn->provides.v[k]])
					first[vn->provides.v[k]] = out.v[i].line;
		}
	}
	vec_free(&q);
	free(seen);
	vec_free(&out);
	return first;
}

/* The steps that take node x out of the closure, applied to the model;
 * false with *why when the cut cannot be planned. */
static bool plan_candidate(SlimModel *m, int x, PlanRound *r, char **why)
{
	IntVec cut = {0};
	if (!net_min_cut(&m->net, x, &cut) || !cut.n) {
		blocked_reason(why, "%s is reached through forced includes only%s", m->nodes.v[x].rel, "");
		vec_free(&cut);
		return false;
	}
	char *stays = net_reach(&m->net, &cut, -1);
	char *reached = net_reach(&m->net, NULL, -1);
	uint8_t *side = slim_name_sides(m, stays, reached);
	bool ok = true;
	/* the files of the cut, each once */
	IntVec froms = {0};
	for (int i = 0; i < cut.n; i++) {
		int f = m->net.edges.v[cut.v[i]].from;
		bool have = false;
		for (int k = 0; k < froms.n && !have; k++)
			have = froms.v[k] == f;
		if (!have)
			vec_push(&froms, f);
	}
	/* near files that are not cut files must not use the far side, or
	 * only in inline bodies, which then move out of the way */
	char *chained = xcalloc((size_t)m->g.nodes.n + 1, 1);
	for (int pass = 0, done = 0; ok && pass < MAX_CHAIN_PASSES; pass++) {
		for (int v = 0; v < m->g.nodes.n && ok; v++) {
			bool is_from = false;
			for (int k = 0; k < froms.n && !is_from; k++)
				is_from = froms.v[k] == v;
			if (!stays[v] || is_from)
				continue;
			int before = r->steps.n;
			ok = chain_near_file(m, v, x, side, r, why);
			if (ok && r->steps.n > before) {
				if (chained[v]) {
					blocked_reason(why, "%s would be split twice%s", m->nodes.v[v].rel, "");
					ok = false;
				}
				chained[v] = 1;
			}
		}
		/* what moved is on the far side now: the files that name it in
		 * their inlines follow in the next pass */
		bool grew = mark_split_names(m, r, done, side);
		done = r->steps.n;
		if (!grew)
			break;
	}
	free(chained);
	VEC(TypesNeed) types = {0};
	for (int fi = 0; fi < froms.n && ok; fi++) {
		int f = froms.v[fi];
		SlimNode *fn = &m->nodes.v[f];
		const Symbols *sy = node_syms(m, f);
		IntVec f_cut = {0};
		for (int i = 0; i < cut.n; i++)
			if (m->net.edges.v[cut.v[i]].from == f)
				vec_push(&f_cut, cut.v[i]);
		if (!sy) {
			blocked_reason(why, "%s is a header this plan makes%s", fn->rel, "");
			ok = false;
			vec_free(&f_cut);
			break;
		}
		char *abs = node_abs(m, f), *err = NULL;
		EditFile e;
		if (!edit_load(&e, abs, false, &err)) {
			blocked_reason(why, "%s%s", err, "");
			free(err);
			free(abs);
			vec_free(&f_cut);
			ok = false;
			break;
		}
		free(abs);
		SpanVec units = {0};
		carve_units(&e, &units);
		IntVec move_units = {0}, declare = {0}, type_ids = {0};
		uint32_t *in_time = near_in_time(m, f, &cut, stays);
		for (uint32_t k = 0; k < sy->nuses && ok; k++) {
			const SymEntry *u = &sym_uses(sy)[k];
			int id = slim_use_id(m, sy, u);
			if (id < 0 || span_has(&fn->gone, (int)u->line))
				continue;
			/* an #ifdef of a name the far side defines changes its
			 * meaning when the far side goes, even where the near side
			 * has the fallback (sched.h's vcpu_is_preempted) */
			if ((u->flags & UF_COND) && (side[id] & 2)) {
				char *nm = xstrndup(sym_name(sy, u), u->name_len);
				blocked_reason(why, "%s tests %s in #if", fn->rel, nm);
				free(nm);
				ok = false;
				break;
			}
			/* provided on both sides: far all the same when only the
			 * cut line brings it before this use */
			int sd = slim_side(side, id, u->flags);
			if (sd != 2 && !(sd == 3 && !(u->flags & UF_MACRO_BODY) && (!in_time[id] || in_time[id] > u->line)))
				continue;
			int ui = unit_at(&units, (int)u->line);
			if (ui >= 0 && body_in_unit(sy, &units.v[ui]) && !(u->flags & UF_COND)) {
				bool have = false;
				for (int i = 0; i < move_units.n && !have; i++)
					have = move_units.v[i] == ui;
				if (!have)
					vec_push(&move_units, ui);
			} else if ((u->flags & UF_TAG) && !(u->flags & UF_COMPLETE)) {
				bool have = false;
				for (int i = 0; i < declare.n && !have; i++)
					have = declare.v[i] == id;
				if (!have)
					vec_push(&declare, id);
			} else if (u->flags & UF_COND) {
				char *nm = xstrndup(sym_name(sy, u), u->name_len);
				blocked_reason(why, "%s tests %s in #if", fn->rel, nm);
				free(nm);
				ok = false;
			} else {
				/* a type by value, a typedef, a macro outside a body:
				 * its far-side definition could move to a types header */
				int p = -1;
				for (int v = 0; v < m->g.nodes.n && p < 0; v++) {
					const Symbols *vs = node_syms(m, v);
					if (stays[v] || !reached[v] || !vs)
						continue;
					for (uint32_t j = 0; j < vs->nprovides && p < 0; j++) {
						int kind = sym_provides(vs)[j].kind;
						if (m->node_provides.v[v].v[j] == id &&
						    (kind == SK_TAG_DEF || kind == SK_TYPEDEF || kind == SK_MACRO) &&
						    !span_has(&m->nodes.v[v].gone, (int)sym_provides(vs)[j].line))
							p = v;
					}
				}
				if (p < 0) {
					char *nm = xstrndup(sym_name(sy, u), u->name_len);
					blocked_reason(why, "%s uses %s, which only the far side declares", fn->rel, nm);
					free(nm);
					ok = false;
				} else {
					int t = -1;
					for (int i = 0; i < types.n && t < 0; i++)
						if (types.v[i].provider == p)
							t = i;
					if (t < 0) {
						vec_push(&types, ((TypesNeed){.provider = p, .node = -1}));
						t = types.n - 1;
					}
					bool have = false;
					for (int i = 0; i < types.v[t].ids.n && !have; i++)
						have = types.v[t].ids.v[i] == id;
					if (!have)
						vec_push(&types.v[t].ids, id);
					vec_push(&type_ids, id);
				}
			}
		}
		if (ok && move_units.n)
			ok = gather_far_bodies(m, sy, &e, &units, side, &fn->gone, &move_units, fn->rel, why);
		/* only moved text makes check's findings stale: a line of a
		 * file whose earlier rounds only dropped includes is planned
		 * only where check found it removable, as series will ask */
		bool modified = fn->carved;
		if (ok && move_units.n) {
			ok = make_split(m, r, f, m->net.edges.v[f_cut.v[0]].to, &move_units, &units, &e, why);
			modified = true;
			fn = &m->nodes.v[f];
		}
		if (ok && (declare.n || type_ids.n) && f_cut.n > 1) {
			blocked_reason(why, "%s reaches the far side through more than one include%s", fn->rel, "");
			ok = false;
		}
		if (ok && declare.n && type_ids.n) {
			blocked_reason(why, "%s needs both declarations and types from the far side%s", fn->rel, "");
			ok = false;
		}
		/* check's word on a file the plan has not split */
		const FindingVec *fv = &m->findings;
		for (int i = 0; i < f_cut.n && ok; i++) {
			NetEdge *ne = &m->net.edges.v[f_cut.v[i]];
			int dir = m->g.edges.v[ne->tag].dir;
			char *inc = check_written(m->ck, fn->file, dir);
			int kind = type_ids.n ? PK_REPLACE : declare.n ? PK_DECLARE : PK_DROP;
			const Finding *fd = NULL;
			if (!modified && kind != PK_REPLACE) {
				fd = finding_for(fv, fn->file, dir);
				if (!fd) {
					blocked_reason(why, "check finds %s needed in %s", inc, fn->rel);
					ok = false;
				} else if (fd->kind == FK_FORWARD) {
					kind = PK_DECLARE;
				} else if (fd->kind == FK_UNUSED || fd->kind == FK_REDUNDANT) {
					kind = PK_DROP;
				} else {
					blocked_reason(why, "check would replace %s in %s", inc, fn->rel);
					ok = false;
				}
				if (ok && fd->fallout.n > m->max_fallout) {
					char *n = xasprintf("%d", fd->fallout.n);
					char *what = xasprintf("%s from %s", inc, fn->rel);
					blocked_reason(why, "removing %s adds includes to %s files (--max-fallout)", what, n);
					free(what);
					free(n);
					ok = false;
				}
			}
			if (ok) {
				step_push(r, kind, fn->rel, inc);
				if (kind == PK_DECLARE) {
					/* check's own list when it spoke: what series will declare */
					PlanStep *ps = &r->steps.v[r->steps.n - 1];
					for (int k = 0; fd && k < fd->syms.n; k++) {
						StrBuf t = {0};
						check_sym_text(m->ck, fd->syms.v[k], &t);
						vec_push(&ps->syms, t.buf);
					}
					for (int k = 0; !fd && k < declare.n; k++)
						vec_push(&ps->syms, xasprintf("struct %s", intern_str(m->names, declare.v[k]) + 1));
					fn->lines += ps->syms.n - 1;
					fn->pp += ps->syms.n;
				} else if (kind == PK_DROP) {
					fn->lines -= 1;
				}
				ne->gone = true;
			}
			free(inc);
		}
		/* the types headers come first in the series; the includes of
		 * them replace the cut lines */
		for (int i = 0; i < types.n && ok && type_ids.n; i++) {
			if (types.v[i].node < 0) {
				int t = make_types(m, r, types.v[i].provider, &types.v[i].ids, why);
				if (t < 0) {
					ok = false;
					break;
				}
				types.v[i].node = t;
			}
			net_add_edge(&m->net, f, types.v[i].node, -1, true);
		}
		free(in_time);
		vec_free(&move_units);
		vec_free(&declare);
		vec_free(&type_ids);
		vec_free(&units);
		vec_free(&f_cut);
		edit_free(&e);
	}
	for (int i = 0; i < types.n; i++)
		vec_free(&types.v[i].ids);
	vec_free(&types);
	vec_free(&froms);
	free(side);
	free(stays);
	free(reached);
	vec_free(&cut);
	/* reviewers' order inside the round too: new headers, back-include
	 * removals, then the include lines (a stable sort) */
	for (int i = 1; i < r->steps.n; i++) {
		PlanStep st = r->steps.v[i];
		int j = i - 1;
		while (j >= 0 && step_rank(r->steps.v[j].kind) > step_rank(st.kind)) {
			r->steps.v[j + 1] = r->steps.v[j];
			j--;
		}
		r->steps.v[j + 1] = st;
	}
	if (ok)
		ok = moved_names_unused(m, r, why);
	/* the cut is planned only when x really leaves */
	if (ok) {
		char *after = net_reach(&m->net, NULL, -1);
		if (after[x]) {
			blocked_reason(why, "%s stays reachable after the cut%s", m->nodes.v[x].rel, "");
			ok = false;
		}
		free(after);
	}
	return ok;
}

/* ---------------------------------------------------------------- the search */

typedef struct {
	int node;
	int64_t brings;
} Cand;

static int cmp_cand(const void *a, const void *b)
{
	const Cand *x = a, *y = b;
	if (x->brings != y->brings)
		return x->brings < y->brings ? 1 : -1;
	return x->node - y->node;
}

static int64_t current(SlimModel *m, int *headers)
{
	int64_t lines, pp;
	slim_measure(m, NULL, &lines, &pp, headers);
	return m->have_pp ? pp : lines;
}

void slim_plan(SlimModel *m, int64_t target, int max_rounds, int max_fallout)
{
	m->max_fallout = max_fallout;
	for (int round = 0; round < max_rounds; round++) {
		int headers;
		int64_t now = current(m, &headers);
		if (now <= target)
			break;
		int64_t *brings = xcalloc((size_t)m->net.n + 1, sizeof(int64_t));
		slim_brings(m, m->have_pp, brings);
		VEC(Cand) cands = {0};
		for (int v = 1; v < m->net.n; v++)
			if (brings[v] > 0)
				vec_push(&cands, ((Cand){v, brings[v]}));
		free(brings);
		if (cands.n > 1)
			qsort(cands.v, (size_t)cands.n, sizeof(Cand), cmp_cand);
		int best = -1;
		double best_score = 0;
		int64_t best_saving = 0;
		for (int i = 0; i < cands.n && i < CANDIDATES; i++) {
			Snap sn;
			snap_take(m, &sn);
			PlanRound r = {0};
			char *why = NULL;
			if (plan_candidate(m, cands.v[i].node, &r, &why)) {
				int h;
				int64_t saving = now - current(m, &h);
				double score = r.steps.n ? (double)saving / r.steps.n : 0;
				if (saving > 0 && (best < 0 || score > best_score ||
						   (score == best_score && saving > best_saving)))
					best = i, best_score = score, best_saving = saving;
			} else if (round == 0 && why) {
				char *b = xasprintf("%s (%lld lines): %s", m->nodes.v[cands.v[i].node].rel,
						    (long long)cands.v[i].brings, why);
				vec_push(&m->blocked, b);
			}
			free(why);
			round_free(&r);
			snap_restore(m, &sn);
			snap_free(&sn);
		}
		if (best < 0) {
			vec_free(&cands);
			break;
		}
		PlanRound r = {0};
		char *why = NULL;
		if (!plan_candidate(m, cands.v[best].node, &r, &why))
			BUG("a planned candidate failed the second time");
		free(why);
		r.what = xasprintf("%s (%lld lines)", m->nodes.v[cands.v[best].node].rel,
				   (long long)cands.v[best].brings);
		slim_measure(m, NULL, &r.lines_after, &r.pp_after, &r.headers_after);
		vec_push(&m->plan, r);
		vec_free(&cands);
	}
}

static const char *const plan_kind_names[] = {"split", "types", "unbackinclude", "drop", "declare", "replace"};

void slim_plan_text(SlimModel *m, StrBuf *out)
{
	for (int i = 0; i < m->plan.n; i++) {
		const PlanRound *r = &m->plan.v[i];
		sb_addf(out, "\n# %d. %s leaves: then %lld lines", i + 1, r->what,
			(long long)(m->have_pp ? r->pp_after : r->lines_after));
		if (m->have_pp)
			sb_addf(out, " (gcc -E -P), %lld physical", (long long)r->lines_after);
		sb_addf(out, ", %d headers\n", r->headers_after);
		for (int k = 0; k < r->steps.n; k++) {
			const PlanStep *st = &r->steps.v[k];
			sb_addf(out, "%s %s", plan_kind_names[st->kind], st->header);
			switch (st->kind) {
			case PK_SPLIT:
			case PK_TYPES:
				sb_addf(out, " -> %s:", st->other);
				for (int j = 0; j < st->syms.n; j++)
					sb_addf(out, " %s", st->syms.v[j]);
				break;
			default:
				sb_addf(out, " %s", st->other);
				if (st->kind == PK_DECLARE && st->syms.n) {
					sb_adds(out, ":");
					for (int j = 0; j < st->syms.n; j++)
						sb_addf(out, "%s %s", j ? "," : "", st->syms.v[j]);
				}
			}
			sb_addc(out, '\n');
		}
	}
}
