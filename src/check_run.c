/*
 * check_run.c — the check's driver (check_new, check_run, check_free of
 * check.h).  check_new builds the symbol index and reads the pragmas;
 * check_run then reads, for every header, what its closure leaves to its
 * includers (check_needs), indexes those needs and the users, checks the
 * files asked about on all cores (check_rules, with their fallout), sorts
 * the findings and adds the minimal policy's missing ones
 * (check_missing).  Exact mode from a compile database first walks every
 * root, so that the index covers every file the checks will meet.
 */
#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check_fallout.h"
#include "check_impl.h"
#include "check_index.h"
#include "check_missing.h"
#include "check_needs.h"
#include "check_pragmas.h"
#include "check_providers.h"
#include "check_root.h"
#include "check_rules.h"
#include "progress.h"

Check *check_new(Session *s, unsigned kinds, bool strict)
{
	Check *ck = xcalloc(1, sizeof(Check));
	ck->s = s;
	ck->kinds = kinds;
	ck->strict = strict;
	session_exact_walk(s);
	build_index(ck);
	ck->seed_lists = xzalloc_now((size_t)ck->nnames + 1, sizeof(*ck->seed_lists));
	read_pragmas(ck);
	return ck;
}

void check_free(Check *ck)
{
	if (!ck)
		return;
	for (int i = 0; i < ck->nroots; i++)
		root_free(&ck->roots[i]);
	free(ck->roots);
	for (int f = 0; f < ck->nfiles; f++) {
		vec_free(&ck->prefixes[f]);
		vec_free(&ck->uses[f]);
		vec_free(&ck->unresolved[f]);
	}
	free(ck->uses);
	free(ck->is_paste_seed);
	free(ck->paste_lens);
	free(ck->prefixes);
	free(ck->unresolved);
	free(ck->has_unresolved);
	free(ck->need_of_name);
	free(ck->need_name);
	free(ck->cu_off);
	free(ck->cu);
	free(ck->np_off);
	free(ck->np_hdr_end);
	free(ck->np);
	free(ck->need_seed_off);
	free(ck->need_seed);
	free(ck->spell_ctx);
	free(ck->fseed_off);
	free(ck->fneed_off);
	seed_lists_free(ck);
	free(ck->seed_bloom);
	free(ck->nested_off);
	free(ck->nested);
	free(ck->seed_need_off);
	free(ck->seed_need);
	free(ck->fneed);
	free(ck->fseed);
	free(ck->need_off);
	free(ck->need);
	free(ck->user_off);
	free(ck->users);
	free(ck->prov_off);
	free(ck->provs);
	free(ck->prov_hdr_end);
	free(ck->seed_off);
	free(ck->seed_file);
	free(ck->is_c);
	free(ck->rev_off);
	free(ck->fwd_off);
	free(ck->fwd);
	free(ck->fprov_off);
	free(ck->fprov);
	free(ck->rev);
	free(ck->ctx_of_file);
	free(ck->public_of);
	interner_free(ck->names);
	free(ck->old2new);
	free(ck->new2old);
	free(ck);
}

/* Findings are sorted by path: each file a finding names gets the rank of
 * its path among them once (ties for equal paths), so that the sorts
 * compare integers instead of paths with long common prefixes. */
static Session *sort_session;
static int *sort_rank; /* by file id; -1 for files no finding names */

static int cmp_path(const void *a, const void *b)
{
	return strcmp(session_path(sort_session, *(const int *)a), session_path(sort_session, *(const int *)b));
}

static void rank_paths(Session *s, const FindingVec *fv)
{
	int nfiles = s->ft.nfiles;
	sort_session = s;
	sort_rank = xmalloc(((size_t)nfiles + 1) * sizeof(int));
	memset(sort_rank, -1, ((size_t)nfiles + 1) * sizeof(int));
	IntVec ids = {0};
	for (int i = 0; i < fv->n; i++) {
		int f[2] = {fv->v[i].file, fv->v[i].target};
		for (int k = 0; k < 2; k++)
			if (f[k] >= 0 && f[k] < nfiles && sort_rank[f[k]] < 0) {
				sort_rank[f[k]] = 0;
				vec_push(&ids, f[k]);
			}
	}
	if (ids.n > 1)
		qsort(ids.v, (size_t)ids.n, sizeof(int), cmp_path);
	for (int i = 0; i < ids.n; i++)
		sort_rank[ids.v[i]] = i > 0 && !cmp_path(&ids.v[i - 1], &ids.v[i]) ? sort_rank[ids.v[i - 1]] : i;
	vec_free(&ids);
}

static int cmp_finding(const void *a, const void *b)
{
	const Finding *x = a, *y = b;
	if (x->file != y->file && sort_rank[x->file] != sort_rank[y->file])
		return sort_rank[x->file] < sort_rank[y->file] ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->target != y->target && x->target >= 0 && y->target >= 0 && sort_rank[x->target] != sort_rank[y->target])
		return sort_rank[x->target] < sort_rank[y->target] ? -1 : 1;
	return x->sym - y->sym;
}

static void sort_findings(Session *s, FindingVec *fv)
{
	if (fv->n < 2)
		return;
	rank_paths(s, fv);
	qsort(fv->v, (size_t)fv->n, sizeof(Finding), cmp_finding);
	free(sort_rank);
	sort_rank = NULL;
}

typedef struct {
	Check *ck;
	const int *files;
	int n;
	int next;
	int next_root; /* the next of ck->roots for a thread to take */
	bool headers; /* pass 1: unresolved uses; else findings */
	FindingVec out;
	pthread_mutex_t *lock;
	Progress *progress;
} Job;

static void *worker(void *arg)
{
	Job *job = arg;
	Root *rp = &job->ck->roots[__atomic_fetch_add(&job->next_root, 1, __ATOMIC_RELAXED)];
	Root r = *rp;
	FindingVec mine = {0};
	for (;;) {
		int i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
		if (i >= job->n)
			break;
		if (job->headers) {
			load_root(job->ck, &r, job->files[i], false);
			compute_unresolved(job->ck, &r, job->files[i]);
		} else {
			check_file(job->ck, &r, job->files[i], &mine);
		}
		progress_add(job->progress, 1);
	}
	pthread_mutex_lock(job->lock);
	for (int i = 0; i < mine.n; i++)
		vec_push(&job->out, mine.v[i]);
	pthread_mutex_unlock(job->lock);
	vec_free(&mine);
	*rp = r;
	return NULL;
}

static void run_parallel(Job *job, int threads)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	job->lock = &lock;
	Check *ck = job->ck;
	int need = threads < 1 ? 1 : threads > 64 ? 64 : threads; /* as run_threads */
	if (ck->nroots < need) {
		ck->roots = xrealloc(ck->roots, (size_t)need * sizeof(Root));
		for (int i = ck->nroots; i < need; i++)
			ck->roots[i] = (Root){.reach_of = -1};
		ck->nroots = need;
	}
	job->progress = progress_begin(NULL, job->headers ? "headers checked" : "files checked", job->n);
	run_threads(worker, job, threads);
	progress_end(job->progress);
}

void check_run(Check *ck, const int *files, int n, FindingVec *out)
{
	Session *s = ck->s;
	FileTable *ft = &s->ft;
	/* A Kbuild configuration: what none of its objects compiles or
	 * includes is outside it (net/netfilter/ipset's headers in x86_64
	 * defconfig), with no includers to compute fallout over */
	IntVec built = {0};
	bool kbuild = s->pp && s->kernel && s->opt->build;
	if (kbuild) {
		for (int i = 0; i < n; i++)
			if (session_exact_reached(s, files[i]))
				vec_push(&built, files[i]);
		files = built.v;
		n = built.n;
	}
	ck->fallback_ctx = n ? session_ctx_for_file(s, files[0]) : 0;
	/* the contexts the graph was prepared with; a file that would need a
	 * new one (outside the file set) is read in the fallback */
	int nctx = s->cfg.ctxs.n;
	phase("contexts");
	ck->ctx_of_file = xmalloc(((size_t)ft->nfiles + 1) * sizeof(int));
	for (int f = 0; f < ft->nfiles; f++)
		ck->ctx_of_file[f] = session_root_ctx(s, f, ck->fallback_ctx, nctx);
	/* every header: what it leaves to its includers */
	phase("check-headers");
	build_rev(ck);
	index_file_seeds(ck);
	if (!ck->nested_off)
		index_nested(ck);
	/* (a system header first met by the exact walk too, but only for the
	 * macros its #ifs test: see compute_unresolved) */
	IntVec headers = {0};
	for (int f = 0; f < ft->nfiles; f++)
		if (ft->files[f].facts && ft->files[f].syms && is_included(ck, f) &&
		    (!kbuild || session_exact_reached(s, f)))
			vec_push(&headers, f);
	Job job = {.ck = ck, .files = headers.v, .n = headers.n, .headers = true};
	run_parallel(&job, s->pp ? 1 : s->opt->jobs); /* exact walks share one table */
	vec_free(&headers);
	phase("check-needs");
	build_needers(ck);
	index_needs(ck);
	build_users(ck);
	phase("check-files");
	job = (Job){.ck = ck, .files = files, .n = n};
	run_parallel(&job, s->pp ? 1 : s->opt->jobs); /* exact walks share one table */
	*out = job.out;
	/* sorted first: the threads finish in any order, and which header
	 * finding reports a missing include must not depend on it */
	sort_findings(s, out);
	if (!ck->strict && wanted(ck, FK_MISSING)) {
		phase("missing");
		missing_from_fallout(ck, files, n, out);
		sort_findings(s, out);
	}
	vec_free(&built);
}
