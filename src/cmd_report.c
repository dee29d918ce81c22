/*
 * cmd_report.c — `hdrslim report [OPTIONS] [TREE] -o report.html`: one
 * self-contained HTML page about the tree's headers (report.h): a
 * treemap sized by a metric of `cost`, and a page per header with its
 * metrics, its #include lines and what each brings, its includers,
 * check's findings about it, slim's and split's proposals for the
 * headers asked for, and include chains on demand.
 *
 * One session serves check and the metrics (the graph is built once);
 * the proposals, for the headers --propose names, come from `hdrslim
 * slim --json` and `split --json` run on the same tree with the same
 * configuration options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "commands.h"
#include "edit.h"
#include "metrics.h"
#include "proc.h"
#include "report.h"

static int by_added(const void *a, const void *b)
{
	const HeaderCost *x = a, *y = b;
	if (x->added != y->added)
		return x->added < y->added ? 1 : -1;
	return (x->file > y->file) - (x->file < y->file);
}

/* `hdrslim CMD --json [forwarded] TREE HEADER`'s output, NULL when it
 * failed (its first error is said). */
static char *run_self(const char *cmd, const StrVec *fwd, const char *tree, const char *header)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	StrVec argv = {0};
	vec_push(&argv, exe);
	vec_push(&argv, (char *)cmd);
	vec_push(&argv, "--json");
	for (int i = 0; i < fwd->n; i++)
		vec_push(&argv, fwd->v[i]);
	vec_push(&argv, (char *)tree);
	vec_push(&argv, (char *)header);
	vec_push(&argv, NULL);
	StrBuf out = {0}, err = {0};
	int st = proc_run((const char *const *)argv.v, NULL, NULL, &out, &err);
	vec_free(&argv);
	if (st != 0 || !out.len) {
		char *e = proc_first_error(sb_str(&err));
		fprintf(stderr, "hdrslim: report: %s %s: %s\n", cmd, header, *e ? e : "failed");
		free(e);
		free(out.buf);
		free(err.buf);
		return NULL;
	}
	free(err.buf);
	while (out.len && (out.buf[out.len - 1] == '\n' || out.buf[out.len - 1] == ' '))
		out.len--;
	out.buf[out.len] = 0;
	return out.buf;
}

int cmd_report(int argc, char **argv)
{
	/* report's own options; the rest are the configuration's, given to
	 * slim and split as they are */
	char *output = option_value(&argc, argv, "report", "--output");
	char *o_short = option_value(&argc, argv, "report", "-o");
	if (o_short) {
		free(output);
		output = o_short;
	}
	StrVec propose = {0}, fwd = {0};
	for (char *p; (p = option_value(&argc, argv, "report", "--propose"));)
		vec_push(&propose, p);
	Options o;
	options_parse(&o, argc, argv, "report", "--kinds");
	if (!output)
		die("report: say where the page goes: -o FILE");
	if (o.args.n > 1)
		die("report: one TREE at most (got '%s' and '%s')", o.args.v[0], o.args.v[1]);
	const char *tree = o.args.n ? o.args.v[0] : o.tree ? o.tree : ".";
	/* forwarded: everything but --kinds and the positional TREE (the
	 * tree is given again, last) */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--kinds"))
			i++;
		else if (strncmp(argv[i], "--kinds=", 8))
			vec_push(&fwd, argv[i]);
	}
	for (int i = fwd.n - 1; i >= 0; i--)
		if (o.args.n && !strcmp(fwd.v[i], o.args.v[0])) {
			memmove(&fwd.v[i], &fwd.v[i + 1], (size_t)(fwd.n - i - 1) * sizeof(char *));
			fwd.n--;
			break;
		}
	unsigned kinds = check_parse_kinds(o.kinds,
					   1u << FK_UNUSED | 1u << FK_REPLACEABLE | 1u << FK_REDUNDANT |
						   1u << FK_FORWARD | 1u << FK_MISSING,
					   "report");

	Session s;
	IntVec files = {0};
	o.index_ahead = true;
	check_open_session(&s, &o, tree, NULL, 0, &files);
	Check *ck = check_new(&s, kinds, false);
	session_save_syms_early(&s);
	/* findings about headers: the page is about them */
	IntVec headers = {0};
	for (int i = 0; i < files.n; i++)
		if (!ends_with(session_path(&s, files.v[i]), ".c"))
			vec_push(&headers, files.v[i]);
	FindingVec fv = {0};
	check_run(ck, headers.v, headers.n, &fv);

	session_all_units(&s);
	CostTable t;
	metrics_compute(&s, s.cfg.units.v, s.cfg.units.n, &t);
	metrics_expand(&s, s.cfg.units.v, t.v, t.n);
	if (t.n)
		qsort(t.v, (size_t)t.n, sizeof(HeaderCost), by_added);

	/* proposals for the headers asked for (each costs a run of slim
	 * and one of split: seconds on the kernel) */
	VEC(Proposal) props = {0};
	phase("report-proposals");
	for (int i = 0; i < propose.n; i++) {
		Proposal p = {xstrdup(propose.v[i]), NULL, NULL};
		if (!p.header[0])
			continue;
		p.slim = run_self("slim", &fwd, s.ft.root, p.header);
		p.split = run_self("split", &fwd, s.ft.root, p.header);
		vec_push(&props, p);
	}

	ReportInput in = {.s = &s, .cost = &t, .ck = ck, .findings = &fv, .props = props.v,
			  .nprops = props.n, .max_includers = 12, .max_fallout = 5};
	StrBuf page = {0};
	report_html(&in, &page);
	phase("output");
	char *err = NULL;
	if (!write_file_atomic(output, page.buf, page.len, 0644, &err))
		die("report: %s", err ? err : output);
	if (!o.quiet)
		fprintf(stderr, "hdrslim: report: %s: %d headers, %d findings, %zu bytes\n", output, t.n, fv.n,
			page.len);
	free(page.buf);
	int status = session_status();
	if (FREE_AT_EXIT) {
		for (int i = 0; i < props.n; i++) {
			free(props.v[i].header);
			free(props.v[i].slim);
			free(props.v[i].split);
		}
		vec_free(&props);
		findings_free(&fv);
		check_free(ck);
		metrics_free(&t);
		vec_free(&files);
		vec_free(&headers);
	}
	for (int i = 0; i < propose.n; i++)
		free(propose.v[i]);
	vec_free(&propose);
	vec_free(&fwd);
	free(output);
	s.last = true;
	session_close(&s);
	options_free(&o);
	return status;
}
