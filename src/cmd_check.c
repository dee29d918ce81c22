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
#include "commands.h"
#include "decl.h"
#include "session.h"

static void via_text(Session *s, const IntVec *via, StrBuf *sb)
{
	for (int i = 0; i + 1 < via->n; i += 2) {
		if (i)
			sb_adds(sb, " -> ");
		sb_adds(sb, session_path(s, via->v[i]));
		if (via->v[i + 1])
			sb_addf(sb, ":%d", via->v[i + 1]);
	}
}

static void print_text(Session *s, Check *ck, const FindingVec *fv)
{
	for (int i = 0; i < fv->n; i++) {
		const Finding *f = &fv->v[i];
		const char *path = session_path(s, f->file);
		StrBuf sb = {0};
		char *inc = f->dir >= 0 ? check_written(ck, f->file, f->dir) : NULL;
		switch (f->kind) {
		case FK_UNUSED:
			sb_addf(&sb, "%s:%u: unused: #include %s: nothing used from it or from what only it brings in",
				path, f->line, inc);
			break;
		case FK_REPLACEABLE:
			sb_addf(&sb, "%s:%u: replaceable: #include %s: only what it brings in is used; include ",
				path, f->line, inc);
			for (int k = 0; k < f->add.n; k++) {
				char *sp = check_spelling(ck, f->file, f->add.v[k]);
				sb_addf(&sb, "%s%s", k ? ", " : "", sp);
				free(sp);
			}
			sb_adds(&sb, " instead");
			break;
		case FK_REDUNDANT:
			sb_addf(&sb, "%s:%u: redundant: #include %s: already included through ", path, f->line, inc);
			if (f->via.n >= 4)
				sb_adds(&sb, session_path(s, f->via.v[2] >= 0 && f->via.n > 4 ? f->via.v[2] : f->via.v[0]));
			break;
		case FK_MISSING: {
			StrBuf name = {0};
			check_sym_text(ck, f->sym, &name);
			char *sp = check_spelling(ck, f->file, f->target);
			sb_addf(&sb, "%s:%u: missing: %s: its home %s is included only indirectly; include it",
				path, f->line, sb_str(&name), sp);
			free(sp);
			free(name.buf);
			break;
		}
		case FK_FORWARD:
			sb_addf(&sb, "%s:%u: forward-declarable: #include %s: only pointers to ", path, f->line, inc);
			check_sym_list(ck, &f->syms, 8, &sb);
			sb_adds(&sb, " are used; declare instead: ");
			for (int k = 0; k < f->syms.n; k++) {
				sb_adds(&sb, k ? " " : "");
				check_sym_text(ck, f->syms.v[k], &sb);
				sb_addc(&sb, ';');
			}
			break;
		default:
			sb_addf(&sb, "%s:%u: %s: #include %s", path, f->line, check_kind_name(f->kind), inc ? inc : "");
		}
		puts(sb_str(&sb));
		sb.len = 0;
		if (f->syms.n && f->kind != FK_MISSING && f->kind != FK_FORWARD) {
			sb_addf(&sb, "%s:%u: note: uses ", path, f->line);
			check_sym_list(ck, &f->syms, 8, &sb);
			puts(sb_str(&sb));
			sb.len = 0;
		}
		if (f->via.n >= 4) {
			sb_addf(&sb, "%s:%u: note: via ", path, f->line);
			via_text(s, &f->via, &sb);
			puts(sb_str(&sb));
			sb.len = 0;
		}
		if (f->condition) {
			printf("%s:%u: note: under #if %s\n", path, f->line, f->condition);
		}
		for (int k = 0; k < f->fallout.n && k < 10; k++) {
			const Fallout *fo = &f->fallout.v[k];
			sb_addf(&sb, "%s:%u: note: fallout: %s uses ", path, f->line, session_path(s, fo->file));
			check_sym_list(ck, &fo->syms, 4, &sb);
			sb_adds(&sb, ": include ");
			for (int a = 0; a < fo->add.n; a++) {
				char *sp = check_spelling(ck, fo->file, fo->add.v[a]);
				sb_addf(&sb, "%s%s", a ? ", " : "", sp);
				free(sp);
			}
			puts(sb_str(&sb));
			sb.len = 0;
		}
		if (f->fallout.n > 10)
			printf("%s:%u: note: fallout: %d more files\n", path, f->line, f->fallout.n - 10);
		free(inc);
		free(sb.buf);
	}
}

static void json_spelling(StrBuf *sb, Check *ck, int from, int target)
{
	char *sp = check_spelling(ck, from, target);
	json_string(sb, sp);
	free(sp);
}

static void json_syms(StrBuf *sb, Check *ck, const IntVec *syms)
{
	sb_addc(sb, '[');
	for (int k = 0; k < syms->n; k++) {
		StrBuf name = {0};
		check_sym_text(ck, syms->v[k], &name);
		if (k)
			sb_adds(sb, ", ");
		json_string(sb, sb_str(&name));
		free(name.buf);
	}
	sb_addc(sb, ']');
}

/* One finding as a JSON object, after a separator unless it is the first. */
static void json_finding(StrBuf *sb, Session *s, Check *ck, const Finding *f, bool first)
{
	char *inc = f->dir >= 0 ? check_written(ck, f->file, f->dir) : NULL;
	sb_adds(sb, first ? "\n {" : ",\n {");
	sb_adds(sb, "\"file\": ");
	json_string(sb, session_path(s, f->file));
	sb_addf(sb, ", \"line\": %u, \"include\": ", f->line);
	if (inc)
		json_string(sb, inc);
	else
		sb_adds(sb, "null");
	sb_adds(sb, ", \"kind\": ");
	json_string(sb, check_kind_name(f->kind));
	sb_adds(sb, ", \"symbols\": ");
	json_syms(sb, ck, &f->syms);
	sb_adds(sb, ", \"via\": [");
	for (int k = 0; k + 1 < f->via.n; k += 2) {
		StrBuf step = {0};
		sb_adds(&step, session_path(s, f->via.v[k]));
		if (f->via.v[k + 1])
			sb_addf(&step, ":%d", f->via.v[k + 1]);
		if (k)
			sb_adds(sb, ", ");
		json_string(sb, sb_str(&step));
		free(step.buf);
	}
	sb_adds(sb, "], \"condition\": ");
	if (f->condition)
		json_string(sb, f->condition);
	else
		sb_adds(sb, "null");
	sb_adds(sb, ", \"suggestion\": {\"remove\": ");
	if (inc && f->kind != FK_MISSING)
		json_string(sb, inc);
	else
		sb_adds(sb, "null");
	sb_adds(sb, ", \"add\": [");
	for (int k = 0; k < f->add.n; k++) {
		if (k)
			sb_adds(sb, ", ");
		json_spelling(sb, ck, f->file, f->add.v[k]);
	}
	/* a forward-declarable include is replaced by the declarations */
	for (int k = 0; f->kind == FK_FORWARD && k < f->syms.n; k++) {
		StrBuf d = {0};
		check_sym_text(ck, f->syms.v[k], &d);
		sb_adds(&d, ";");
		if (k || f->add.n)
			sb_adds(sb, ", ");
		json_string(sb, sb_str(&d));
		free(d.buf);
	}
	sb_adds(sb, "], \"declare\": [");
	for (int k = 0; f->kind == FK_FORWARD && k < f->syms.n; k++) {
		StrBuf d = {0};
		check_sym_text(ck, f->syms.v[k], &d);
		sb_adds(&d, ";");
		if (k)
			sb_adds(sb, ", ");
		json_string(sb, sb_str(&d));
		free(d.buf);
	}
	sb_adds(sb, "]}, \"fallout\": [");
	for (int k = 0; k < f->fallout.n; k++) {
		const Fallout *fo = &f->fallout.v[k];
		sb_adds(sb, k ? ", {\"file\": " : "{\"file\": ");
		json_string(sb, session_path(s, fo->file));
		sb_adds(sb, ", \"symbols\": ");
		json_syms(sb, ck, &fo->syms);
		sb_adds(sb, ", \"add\": [");
		for (int a = 0; a < fo->add.n; a++) {
			if (a)
				sb_adds(sb, ", ");
			json_spelling(sb, ck, fo->file, fo->add.v[a]);
		}
		sb_adds(sb, "]}");
	}
	sb_adds(sb, "]}");
	free(inc);
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
			json_finding(&job->bufs[c], job->s, job->ck, &job->fv->v[i], i == 0);
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
