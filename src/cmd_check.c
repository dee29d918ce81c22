/*
 * cmd_check.c — `hdrslim check [OPTIONS] [TREE] [FILE...]`: include
 * findings, as compiler-style lines (path:line: kind: message, with
 * "note:" lines for the evidence) or as JSON.  Exit status 0 when clean,
 * 1 when there are findings, 2 when it cannot run: a CI gate.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "findings.h"
#include "commands.h"
#include "session.h"

static void print_text(Session *s, Check *ck, const FindingVec *fv)
{
	StrBuf sb = {0};
	for (int i = 0; i < fv->n; i++) {
		sb.len = 0;
		finding_headline(s, ck, &fv->v[i], &sb);
		sb_addc(&sb, '\n');
		finding_notes(s, ck, &fv->v[i], 10, &sb);
		fwrite(sb.buf, 1, sb.len, stdout);
	}
	free(sb.buf);
}

/* The findings are formatted on all cores a window at a time (a window
 * is a few megabytes: the whole text of a kernel run is 100 MB) and
 * written in order. */
enum { JSON_CHUNK = 512, JSON_WINDOW = 32 };

typedef struct {
	Session *s;
	Check *ck;
	const FindingVec *fv;
	int first;    /* the window's first finding */
	int next;     /* next chunk of the window */
	StrBuf bufs[JSON_WINDOW];
} JsonJob;

static void *json_worker(void *arg)
{
	JsonJob *job = arg;
	for (;;) {
		int c = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
		int from = job->first + c * JSON_CHUNK;
		if (c >= JSON_WINDOW || from >= job->fv->n)
			return NULL;
		for (int i = from; i < from + JSON_CHUNK && i < job->fv->n; i++)
			finding_json(&job->bufs[c], job->s, job->ck, &job->fv->v[i], i == 0);
	}
}

static void print_json(Session *s, Check *ck, const FindingVec *fv)
{
	check_spelling_prepare(ck, fv);
	JsonJob job = {.s = s, .ck = ck, .fv = fv};
	fputs("[", stdout);
	for (job.first = 0; job.first < fv->n; job.first += JSON_CHUNK * JSON_WINDOW) {
		job.next = 0;
		run_threads(json_worker, &job, s->opt->jobs);
		for (int c = 0; c < JSON_WINDOW; c++) {
			if (job.bufs[c].len) /* never formatted: no buffer at all */
				fwrite(job.bufs[c].buf, 1, job.bufs[c].len, stdout);
			job.bufs[c].len = 0;
		}
	}
	for (int c = 0; c < JSON_WINDOW; c++)
		free(job.bufs[c].buf);
	fputs(fv->n ? "\n]\n" : "]\n", stdout);
}

int cmd_check(int argc, char **argv)
{
	Options o;
	options_parse(&o, argc, argv, "check", "--json,--kinds,--policy,--mapping,--decl-macro");
	unsigned kinds = check_parse_kinds(o.kinds, (1u << FK_NKINDS) - 1, "check");
	bool strict = false;
	if (o.policy && !strcmp(o.policy, "strict"))
		strict = true;
	else if (o.policy && strcmp(o.policy, "minimal"))
		die("check: unknown policy '%s' (minimal, strict)", o.policy);
	/* [TREE] [FILE...]: a first argument that is a directory is the tree */
	const char *tree = o.tree ? o.tree : ".";
	int first_file = 0;
	struct stat st;
	if (o.args.n && stat(o.args.v[0], &st) == 0 && S_ISDIR(st.st_mode)) {
		tree = o.args.v[0];
		first_file = 1;
	} else if (o.args.n && !o.tree && stat(o.args.v[0], &st) < 0) {
		die("check: %s: No such file or directory", o.args.v[0]);
	}
	Session s;
	IntVec files = {0};
	o.index_ahead = true;
	check_open_session(&s, &o, tree, o.args.v + first_file, o.args.n - first_file, &files);
	Check *ck = check_new(&s, kinds, strict);
	/* check reads no more symbol facts: write their cache meanwhile */
	session_save_syms_early(&s);
	if (o.mapping)
		check_load_mapping(ck, o.mapping);
	FindingVec fv = {0};
	check_run(ck, files.v, files.n, &fv);
	phase("output");
	if (o.json)
		print_json(&s, ck, &fv);
	else
		print_text(&s, ck, &fv);
	fflush(stdout);
	phase("free");
	int status = session_status();
	if (status == EXIT_OK && fv.n)
		status = 1;
	if (FREE_AT_EXIT) {
		findings_free(&fv);
		check_free(ck);
		vec_free(&files);
	}
	s.last = true;
	session_close(&s);
	options_free(&o);
	return status;
}
