/*
 * check_rules.c — the findings of one file.  check_file loads the file's
 * closure with its labels and picks the #include lines open to a finding;
 * then it reads the file's own uses, and while some line is open the
 * unresolved uses of the headers in its closure: a use depends on line c
 * when removing c leaves it no provider that comes for certain before the
 * point of use.  A line no use depends on is unused (redundant when what
 * it brings comes anyway); one only "struct S *" uses depend on is
 * forward-declarable; one whose users can include the providers instead
 * is replaceable.  A header's finding is made only when its fallout
 * (check_fallout) can be placed.  The strict policy's missing includes
 * are found here too.
 */
#include "check_rules.h"

#include <stdlib.h>
#include <string.h>

#include "check_fallout.h"
#include "check_index.h"
#include "check_needs.h"
#include "check_pragmas.h"
#include "check_providers.h"
#include "check_replace.h"
#include "check_root.h"

/* Every name the root uses, with the unresolved uses of its closure. */
typedef struct {
	int id, flags;
	unsigned line; /* own use: its first line; else 0 */
	int from;      /* closure use: the node that needs it; -1 own */
	int need;      /* closure use: need << 1 | complete; -1 own */
	unsigned from_avail; /* closure use: avail(from) */
	bool before_own;     /* closure use of a name the root uses too, needed
			      * above the root's first use (see add_closure_uses) */
} EffUse;
typedef VEC(EffUse) EffUseVec;

/* Whether, with root line c gone, some file still provides the name of e
 * in a branch the walk takes: the root walked again without c (once per
 * root and line).  A text read more than once can go either way: with
 * the first reading gone, the next takes the branch its guard skipped
 * (<stddef.h>'s size_t under _SIZE_T), or does not (<stdarg.h> under
 * __need___va_list has no va_start()). */
static bool provided_without(Check *ck, Root *r, const EffUse *e, int c)
{
	if (r->g2_epoch != r->epoch || r->g2_line != c) {
		Unit u = {r->g.nodes.v[0], ctx_of(ck, r->g.nodes.v[0])};
		bool muted = diag_muted, dropped = diag_dropped;
		diag_dropped = true; /* what the trial walk meets is not news */
		session_tu_without(ck->s, &u, &r->g2, r->redges.v[c].dir);
		diag_muted = muted;
		diag_dropped = dropped;
		r->g2_epoch = r->epoch;
		r->g2_line = c;
	}
	for (int k = ck->prov_off[e->id]; k < ck->prov_off[e->id + 1]; k++) {
		const Prov *p = &ck->provs[k];
		if (!meets_use(p->kind, e->flags))
			continue;
		int node = tu_find(&r->g2, p->file);
		if (node > 0 && !tu_line_dead(&r->g2, node, p->line))
			return true;
	}
	return false;
}

/* The root line a use depends on: removing it leaves the use with no
 * provider that comes for certain before the point of use.  -1 for none;
 * -2 when no single line decides (the use is not satisfied in order, or
 * only through #if branches of unknown value): then every line that
 * brings a provider counts.  A header's use read before the root's own
 * (before_own) that nothing meets in time constrains nothing: the root's
 * own use decides. */
static int use_depends(Check *ck, Root *r, const EffUse *e, int *lines_out, int *nlines)
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
	/* a provider that has it only in some of its readings (exact mode:
	 * <stddef.h>'s offsetof() is skipped under __need_size_t) brings it
	 * for certain through the root lines whose readings have it */
	bool only_partial = s0 < 0;
	for (int i = 0; i < r->part_lines.n; i++) {
		int x = r->part_lines.v[i];
		unsigned xl = r->redges.v[x].line;
		if (!(own ? xl < at : xl <= at))
			continue;
		satisfied = true;
		if (s0 < 0)
			s0 = x;
		else if (x != s0 && s1 < 0)
			s1 = x;
	}
	if (satisfied && s1 >= 0)
		return -1; /* two certain ways: no one line is needed */
	if (!satisfied && e->before_own)
		return -1; /* (a tag in a prototype: git's object.h after cache.h) */
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
	/* one line, through the readings of a text read more than once: the
	 * walk without it decides */
	if (only_partial && provided_without(ck, r, e, s0))
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
		if (tu_line_dead(g, 0, line))
			buf[i] = ' ';
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
				/* the root's own use is no stricter point when a
				 * header needs the name before it (a prototype of
				 * prg.h names struct Cfg, which the root uses
				 * only below): the header's is read too, as the
				 * one this need's later headers merge into */
				if (o->from >= 0 || av >= o->line)
					continue;
			}
			EffUse e = {ck->need_name[q], x & 1 ? UF_TAG | UF_COMPLETE : 0, 0, v, x, av,
				    m->epoch == r->epoch};
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

/* What check_file knows of the file as it goes, by root line (an index
 * in r->redges) and by closure node. */
typedef struct {
	int file;
	const Facts *ff;
	EffUseVec eff;       /* the file's own uses, then its closure's */
	VEC(UseRef) live;    /* exact mode: the uses of what the configuration compiles */
	int nre;             /* root lines */
	IntVec *deps;        /* by line: the uses (in eff) that depend on it alone */
	uint8_t *keep;       /* by line: some use needs it */
	uint8_t *hdr_kept;   /* by line: a header in the closure needs it */
	uint8_t *open_line;  /* by line: may still become a finding */
	int nopen;
	uint8_t *used_node;  /* by node: provides a name the file uses */
	uint8_t *far_prov;   /* by node, or NULL; see mark_far_providers */
} FileCheck;

/* The file's own uses, first in fc->eff (exact mode: only what the
 * configuration compiles of the file); each need among them marked, so
 * that the closure's uses of it are not read again. */
static void add_own_uses(Check *ck, Root *r, FileCheck *fc)
{
	bool use_live = r->g.dead.n > 0 && live_uses(ck, fc->file, &r->g, (void *)&fc->live);
	const UseRef *own = use_live ? fc->live.v : ck->uses[fc->file].v;
	int nown = use_live ? fc->live.n : ck->uses[fc->file].n;
	for (int k = 0; k < nown; k++) {
		const UseRef *u = &own[k];
		EffUse e = {u->id, u->flags, u->line, -1, -1, 0, false};
		int q = ck->need_of_name[u->id];
		if (q >= 0 && !(u->flags & UF_PROTO)) /* a prototype wants more than the need */
			r->need_mark[q] = (struct NeedMark){r->epoch, fc->eff.n};
		vec_push(&fc->eff, e);
	}
}

/* The last line of an #include whose name is computed from macros nobody
 * here knows (trace_events.h's #include TRACE_INCLUDE(TRACE_INCLUDE_FILE)):
 * it may use whatever the lines before it define.  0 when none. */
static unsigned opaque_until(const Root *r, int file, const Facts *ff)
{
	unsigned until = 0;
	for (int m = 0; m < r->g.missing.n; m++) {
		const TuMissing *tm = &r->g.missing.v[m];
		if (tm->from_file != file || tm->dir < 0 || !(facts_dirs(ff)[tm->dir].flags & DF_COMPUTED))
			continue;
		if (facts_dirs(ff)[tm->dir].line > until)
			until = facts_dirs(ff)[tm->dir].line;
	}
	return until;
}

/* The lines that may become findings (fc->open_line, fc->nopen).  A use
 * of the closure can only make lines needed (the file's own uses come
 * first): once no line is left open, the rest of them change nothing. */
static void open_lines(Check *ck, Root *r, FileCheck *fc)
{
	FileTable *ft = &ck->s->ft;
	const Symbols *own_syms = syms_of(ck, fc->file);
	bool forwarder = is_forwarder(ck, fc->file);
	unsigned opaque = opaque_until(r, fc->file, fc->ff);
	bool removals = wanted(ck, FK_UNUSED) || wanted(ck, FK_REDUNDANT) || wanted(ck, FK_REPLACEABLE) ||
			wanted(ck, FK_FORWARD);
	fc->open_line = xcalloc((size_t)fc->nre + 1, 1);
	fc->nopen = 0;
	for (int c = 0; c < fc->nre && removals && !forwarder /* its includes are all it is */; c++) {
		const RootEdge *re = &r->redges.v[c];
		int target = r->g.nodes.v[re->node];
		fc->open_line[c] = re->dir >= 0 &&                    /* forced includes are always there */
				   !kept_line(own_syms, re->line) && /* the user said so, or an X-macro table */
				   target != fc->file &&
				   target < ck->nfiles && /* found late by an exact walk: nothing known of it */
				   /* a .c, .inc, .def ... file: code, not declarations */
				   ends_with(fs_keystr(ft, ft->files[target].key), ".h") &&
				   re->line >= opaque; /* a computed #include after it may need it */
		fc->nopen += fc->open_line[c];
	}
}

/* A use (fc->eff.v[k]) that no closure file provides may be made by a
 * macro: the lines it could come from stay (a system header's need:
 * unless a replacement meets it).  False when no seed could make it
 * either. */
static bool keep_seed_lines(Check *ck, Root *r, FileCheck *fc, int k)
{
	const EffUse *e = &fc->eff.v[k];
	if (!(e->need >= 0 ? need_seed_providers(ck, r, e->need) : seed_providers(ck, r, e->id)))
		return false;
	for (int j = 0; j < r->prov_nodes.n; j++) {
		int p = r->prov_nodes.v[j];
		if (e->from >= 0 && !(ck->s->ft.files[r->g.nodes.v[e->from]].flags & F_IN_TREE)) {
			/* a system header's: it meets its own */
			if (r->lab1.v[p] >= 0)
				fc->hdr_kept[r->lab1.v[p]] = 1;
			if (r->lab2.v[p] >= 0)
				fc->hdr_kept[r->lab2.v[p]] = 1;
			continue;
		}
		close_line(fc->keep, fc->open_line, &fc->nopen, r->lab1.v[p]);
		close_line(fc->keep, fc->open_line, &fc->nopen, r->lab2.v[p]);
	}
	mark_far_providers(r, &fc->far_prov);
	return true;
}

/* Reads use k of fc->eff against the open lines: its providers, kept in
 * r->effp for the findings, and the lines it keeps or depends on. */
static void read_use(Check *ck, Root *r, FileCheck *fc, int k)
{
	EffUse *e = &fc->eff.v[k];
	/* the file's own code sees only what is declared above it (redis's
	 * net.c calls redisCheckConnectDone() 13 lines before defining it:
	 * the prototype in "net.h" is what it compiles with); a macro body
	 * is read where it is expanded */
	unsigned above = e->from < 0 && !(e->flags & UF_MACRO_BODY) ? e->line : 0;
	int np = e->need >= 0 ? need_providers(ck, r, e->need) : all_providers(ck, r, e->id, e->flags, above);
	vec_push(&r->effp_off, r->effp.n);
	r->effp_np.v[k] = np;
	for (int j = 0; j < np; j++)
		vec_push(&r->effp, r->prov_nodes.v[j]);
	if (np < 0)
		return;
	if (np == 0) {
		keep_seed_lines(ck, r, fc, k);
		return;
	}
	for (int j = 0; j < np && e->from < 0; j++)
		fc->used_node[r->prov_nodes.v[j]] = 1;
	int lines[64], nlines;
	int c = use_depends(ck, r, e, lines, &nlines);
	if (c == -2 && e->from >= 0) {
		/* a header's need: only a replacement that meets
		 * it may take the line (add_header_needs) */
		for (int j = 0; j < nlines; j++)
			fc->hdr_kept[lines[j]] = 1;
		mark_far_providers(r, &fc->far_prov);
	} else if (c == -2) {
		for (int j = 0; j < nlines; j++)
			close_line(fc->keep, fc->open_line, &fc->nopen, lines[j]);
		mark_far_providers(r, &fc->far_prov);
	} else if (c >= 0) {
		vec_push(&fc->deps[c], k);
		if (e->from >= 0)
			fc->hdr_kept[c] = 1; /* needed by a header: as above */
	}
}

/* Every use's providers, kept for the findings below: effp_off[k] is
 * where use k's are in effp, effp_np[k] all_providers' count.  The
 * file's own uses first; then, while some line is open, what the
 * closure's headers need. */
static void read_uses(Check *ck, Root *r, FileCheck *fc)
{
	r->effp_off.n = 0;
	r->effp.n = 0;
	ivec_fill(&r->effp_np, fc->eff.n, 0);
	for (int k = 0, pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (!fc->nopen)
				break;
			add_closure_uses(ck, r, &fc->eff, fc->open_line);
			while (r->effp_np.n < fc->eff.n)
				vec_push(&r->effp_np, 0);
		}
		for (; k < fc->eff.n; k++) {
			if (fc->eff.v[k].from >= 0 && !fc->nopen)
				break;
			read_use(ck, r, fc, k);
		}
	}
	vec_push(&r->effp_off, r->effp.n);
}

/* What open line c would be, once every use is read: the kind of its
 * finding, or -1 for none (the line stays, or that kind is not wanted). */
static int line_kind(Check *ck, Root *r, const FileCheck *fc, int c)
{
	const RootEdge *re = &r->redges.v[c];
	if (!fc->open_line[c] || fc->keep[c])
		return -1;
	int target = r->g.nodes.v[re->node];
	if (needs_includer(ck, r, target, re->line))
		return -1; /* the header is written to be included here */
	if (re->cond && fc->far_prov && fc->far_prov[re->node])
		return -1; /* see mark_far_providers */
	const IntVec *deps = &fc->deps[c];
	int kind = -1;
	if (!deps->n) {
		bool elsewhere = avail_without(r, re->node, c) != NEVER;
		kind = fc->used_node[re->node] && elsewhere ? FK_REDUNDANT : FK_UNUSED;
	} else {
		/* only "struct S *" uses: a declaration of S will do */
		bool pointers = true;
		for (int j = 0; j < deps->n && pointers; j++) {
			const EffUse *e = &fc->eff.v[deps->v[j]];
			if (!(e->flags & UF_TAG) || (e->flags & UF_COMPLETE) || e->from >= 0)
				pointers = false;
		}
		if (pointers)
			kind = FK_FORWARD;
	}
	if (kind < 0 && deps->n) {
		bool movable = true;
		for (int j = 0; j < deps->n && movable; j++) {
			/* a header's need (api.h naming what compat.h
			 * defines) is met by including its provider
			 * first: see add_header_needs */
			int kk = deps->v[j];
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
	    (fc->hdr_kept[c] && (kind != FK_REPLACEABLE || !umbrella_like(ck, target))))
		return -1;
	return kind;
}

/* A redundant line's evidence: the names the file uses from it, and the
 * way it comes anyway (a certain one when there is). */
static void redundant_evidence(Check *ck, Root *r, const FileCheck *fc, int c, Finding *fd)
{
	const RootEdge *re = &r->redges.v[c];
	for (int k = 0; k < fc->eff.n; k++) {
		const EffUse *e = &fc->eff.v[k];
		if (e->from >= 0 || r->effp_np.v[k] <= 0)
			continue;
		for (int q = r->effp_off.v[k]; q < r->effp_off.v[k + 1]; q++)
			if (r->effp.v[q] == re->node)
				add_unique(&fd->syms, e->id);
	}
	int other = r->cert1.v[re->node] != c ? r->cert1.v[re->node] : r->cert2.v[re->node];
	if (other < 0)
		other = r->lab1.v[re->node] != c ? r->lab1.v[re->node] : r->lab2.v[re->node];
	if (other >= 0)
		chain_to(ck, r, other, re->node, &fd->via);
}

/* A replaceable line's replacement: the names used from it and, for
 * each, the best provider that leaves with the line.  False when what it
 * would need instead is not to be included here: the include stays. */
static bool replacement(Check *ck, Root *r, const FileCheck *fc, int c, Finding *fd)
{
	bool refused = false;
	for (int j = 0; j < fc->deps[c].n; j++) {
		const EffUse *e = &fc->eff.v[fc->deps[c].v[j]];
		if (e->from >= 0)
			continue; /* a header's need: add_header_needs */
		add_unique(&fd->syms, e->id);
		int h = leaving_home(ck, r, e->id, e->flags, c, fc->file);
		if (h < 0)
			continue;
		/* the public face of it is what the line includes (struct tm's
		 * <bits/types/struct_tm.h> is <time.h>'s): the line is what
		 * the file should include for it (redis's localtime.c) */
		if (h == fd->target)
			refused = true;
		add_unique(&fd->add, h);
	}
	refused = refused || !fd->add.n || !add_header_needs(ck, r, c, fc->file, fd->target, &fd->add);
	for (int a = 0; a < fd->add.n; a++)
		if (no_include(ck, fc->file, fd->add.v[a]))
			refused = true;
	/* in the order the TU first read them, which is one they compile in
	 * (git's xemit.c: "xdiff.h", whose mmfile_t "xdiffi.h" names, before
	 * it); a public face the closure does not hold goes last */
	for (int i = 1; i < fd->add.n; i++)
		for (int j = i; j > 0; j--) {
			int a = tu_find(&r->g, fd->add.v[j - 1]), b = tu_find(&r->g, fd->add.v[j]);
			if ((unsigned)a <= (unsigned)b)
				break;
			int t = fd->add.v[j];
			fd->add.v[j] = fd->add.v[j - 1];
			fd->add.v[j - 1] = t;
		}
	return !refused;
}

/* A header's finding on line c takes files out of its includers'
 * closures: fd's fallout.  False when it cannot be placed: the include
 * stays. */
static bool line_fallout(Check *ck, Root *r, int c, Finding *fd)
{
	IntVec leaving = {0};
	/* what may leave: reached through line c and not certainly
	 * through another */
	for (int v = 1; v < r->n; v++)
		if ((r->lab1.v[v] == c || r->lab2.v[v] == c || r->cert1.v[v] == c || r->cert2.v[v] == c) &&
		    !((r->cert1.v[v] >= 0 && r->cert1.v[v] != c) || (r->cert2.v[v] >= 0 && r->cert2.v[v] != c))) {
			int f = r->g.nodes.v[v];
			bool added = false;
			for (int a = 0; a < fd->add.n; a++)
				if (fd->add.v[a] == f)
					added = true;
			if (!added)
				vec_push(&leaving, f);
		}
	bool made = compute_fallout(ck, r, fd, &leaving, c);
	vec_free(&leaving);
	return made;
}

/* The finding of kind on open line c, appended to out unless it cannot
 * be made. */
static void line_finding(Check *ck, Root *r, const FileCheck *fc, int c, int kind, FindingVec *out)
{
	const RootEdge *re = &r->redges.v[c];
	Finding fd;
	finding_init(&fd, fc->file, kind);
	fd.dir = re->dir;
	fd.line = re->line;
	fd.target = r->g.nodes.v[re->node];
	fd.condition = facts_condition(fc->ff, re->dir, NULL);
	bool made = true;
	if (kind == FK_REDUNDANT) {
		redundant_evidence(ck, r, fc, c, &fd);
	} else if (kind == FK_FORWARD) {
		for (int j = 0; j < fc->deps[c].n; j++)
			add_unique(&fd.syms, fc->eff.v[fc->deps[c].v[j]].id);
	} else if (kind == FK_REPLACEABLE) {
		made = replacement(ck, r, fc, c, &fd);
	}
	if (made && (kind == FK_UNUSED || kind == FK_REPLACEABLE || kind == FK_FORWARD) && is_included(ck, fc->file))
		made = line_fallout(ck, r, c, &fd);
	if (made)
		vec_push(out, fd);
	else
		findings_free_one(&fd);
}

/* Missing (strict): an own use whose providers are all reached only
 * through other headers. */
static void strict_missing_findings(Check *ck, Root *r, const FileCheck *fc, FindingVec *out)
{
	int file = fc->file;
	for (int k = 0; k < fc->eff.n; k++) {
		const EffUse *e = &fc->eff.v[k];
		if (e->from >= 0 || !(e->flags & UF_CODE) || ((e->flags & UF_TAG) && !(e->flags & UF_COMPLETE)))
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

static void file_check_free(FileCheck *fc)
{
	free(fc->far_prov);
	for (int c = 0; c < fc->nre; c++)
		vec_free(&fc->deps[c]);
	free(fc->deps);
	free(fc->used_node);
	free(fc->keep);
	free(fc->hdr_kept);
	free(fc->open_line);
	vec_free(&fc->eff);
	vec_free(&fc->live);
}

void check_file(Check *ck, Root *r, int file, FindingVec *out)
{
	const Facts *ff = ck->s->ft.files[file].facts;
	if (!ff)
		return;
	/* Without an #include line of its own a file has nothing to remove,
	 * and only the strict policy adds includes here (the minimal one's
	 * "missing" come from the fallout of other files' findings): no
	 * closure to read.  A fifth of the kernel's files are such. */
	bool strict = ck->strict && wanted(ck, FK_MISSING);
	if (!strict && !includes_anything(ff))
		return;
	load_root(ck, r, file, true);
	if (!r->need_mark)
		r->need_mark = xzalloc_now((size_t)ck->nneeds + 1, sizeof(*r->need_mark));
	r->epoch++;
	FileCheck fc = {.file = file, .ff = ff, .nre = r->redges.n};
	add_own_uses(ck, r, &fc);
	fc.deps = xcalloc((size_t)fc.nre + 1, sizeof(IntVec));
	fc.keep = xcalloc((size_t)fc.nre + 1, 1);
	fc.hdr_kept = xcalloc((size_t)fc.nre + 1, 1);
	fc.used_node = xcalloc((size_t)r->n + 1, 1);
	open_lines(ck, r, &fc);
	if (fc.nopen || strict) { /* else no line to decide about */
		read_uses(ck, r, &fc);
		keep_pasted(ck, r, file, fc.keep);
		for (int c = 0; c < fc.nre; c++) {
			int kind = line_kind(ck, r, &fc, c);
			if (kind >= 0)
				line_finding(ck, r, &fc, c, kind, out);
		}
		if (strict)
			strict_missing_findings(ck, r, &fc, out);
	}
	file_check_free(&fc);
}
