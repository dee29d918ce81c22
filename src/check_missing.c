/*
 * check_missing.c — the minimal policy's missing includes.  A file is
 * missing an include only where it relies on one that another finding
 * removes, i.e. where it is a header finding's fallout.  They are read off
 * the findings once all are made and sorted, so that which finding
 * reports one does not depend on the threads' order.
 */
#include "check_missing.h"

#include <stdlib.h>

#include "check_pragmas.h"

/* One "missing" finding that fallout implies: fallout k of finding i
 * says its file must include add a. */
typedef struct {
	int i, k, a;
} MissingAt;

typedef struct {
	Check *ck;
	const FindingVec *out;
	const MissingAt *at;
	Finding *made; /* by index in at; syms.n == 0: none */
	int n, next;
} MissingJob;

/* The missing finding of m: the symbols the file uses from that home,
 * and its first use of them. */
static void missing_finding(Check *ck, const FindingVec *out, const MissingAt *m, Finding *fd)
{
	const Finding *from = &out->v[m->i];
	const Fallout *fo = &from->fallout.v[m->k];
	finding_init(fd, fo->file, FK_MISSING);
	fd->target = fo->add.v[m->a];
	unsigned first = 0;
	for (int q = 0; q < fo->syms.n; q++) {
		int id = fo->syms.v[q];
		bool from_home = false;
		for (int j = ck->prov_off[id]; j < ck->prov_off[id + 1] && !from_home; j++)
			from_home = ck->provs[j].kind != SK_SEED && public_home(ck, fo->file, ck->provs[j].file) == fd->target;
		if (!from_home)
			continue;
		vec_push(&fd->syms, id);
		for (int u = 0; u < ck->uses[fo->file].n; u++)
			if (ck->uses[fo->file].v[u].id == id && (!first || ck->uses[fo->file].v[u].line < first)) {
				first = ck->uses[fo->file].v[u].line;
				if (fd->sym < 0 || first)
					fd->sym = id;
			}
	}
	if (!fd->syms.n)
		return;
	if (fd->sym < 0)
		fd->sym = fd->syms.v[0];
	/* used only by an X-macro table it reads (see index_nested): the
	 * line that reads one */
	const Symbols *sy = first ? NULL : syms_of(ck, fo->file);
	for (uint32_t k = 0; sy && k < sy->npragmas; k++)
		if (sym_pragmas(sy)[k].kind == PR_NESTED && (!first || sym_pragmas(sy)[k].line < first))
			first = sym_pragmas(sy)[k].line;
	fd->line = first;
	vec_push(&fd->add, fd->target);
	/* via: the header whose finding removes it */
	vec_push(&fd->via, from->file);
	vec_push(&fd->via, (int)from->line);
	vec_push(&fd->via, fd->target);
	vec_push(&fd->via, 0);
}

static void *missing_worker(void *arg)
{
	MissingJob *job = arg;
	for (int from, to; next_files(&job->next, job->n, &from, &to);)
		for (int m = from; m < to; m++)
			missing_finding(job->ck, job->out, &job->at[m], &job->made[m]);
	return NULL;
}

void missing_from_fallout(Check *ck, const int *files, int n, FindingVec *out)
{
	FileTable *ft = &ck->s->ft;
	uint8_t *checked = xcalloc((size_t)ft->nfiles + 1, 1);
	for (int i = 0; i < n; i++)
		checked[files[i]] = 1;
	/* by file: the homes already reported missing (one finding per file
	 * and home, the first header finding that makes it) */
	IntVec *reported = xcalloc((size_t)ft->nfiles + 1, sizeof(IntVec));
	VEC(MissingAt) at = {0};
	for (int i = 0; i < out->n; i++) {
		for (int k = 0; k < out->v[i].fallout.n; k++) {
			const Fallout *fo = &out->v[i].fallout.v[k];
			if (!checked[fo->file])
				continue;
			for (int a = 0; a < fo->add.n; a++) {
				IntVec *done = &reported[fo->file];
				bool dup = false;
				for (int q = 0; q < done->n && !dup; q++)
					dup = done->v[q] == fo->add.v[a];
				if (dup)
					continue;
				vec_push(done, fo->add.v[a]);
				MissingAt m = {i, k, a};
				vec_push(&at, m);
			}
		}
	}
	/* the findings themselves on all cores, then added in that order */
	MissingJob job = {ck, out, at.v, xcalloc((size_t)at.n + 1, sizeof(Finding)), at.n, 0};
	run_threads(missing_worker, &job, ck->s->opt->jobs);
	for (int m = 0; m < at.n; m++) {
		if (job.made[m].syms.n)
			vec_push(out, job.made[m]);
		else
			findings_free_one(&job.made[m]);
	}
	free(job.made);
	vec_free(&at);
	for (int f = 0; f < ft->nfiles; f++)
		vec_free(&reported[f]);
	free(reported);
	free(checked);
}
