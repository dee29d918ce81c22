/*
 * cmd_verify.c — `hdrslim verify [OPTIONS] [TREE] [--since REV]`: compile
 * every TU the changes since REV (default HEAD: the uncommitted work)
 * touch, and report the ones that compiled before and fail now, in the
 * compiler's style.  Exit 0 when nothing regressed, 1 when something
 * did, 2 when it cannot run (not a git tree, a bad REV).  A CI gate, and
 * the check `fix` and `series` make after each step.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "git.h"
#include "verify.h"


/* "2 TUs compiled, 1 regression": the summary of one configuration,
 * in the words of a plain run when neither the memo nor fail-fast took
 * part. */
static void summary(StrBuf *sb, const VerifyConfig *c, int failing)
{
	if (!c->proven && !c->skipped)
		sb_addf(sb, "%d TU%s compiled", c->compiled, c->compiled == 1 ? "" : "s");
	else
		sb_addf(sb, "%d TU%s: %d compiled, %d proven by an identical earlier compile, %d skipped", c->tus,
			c->tus == 1 ? "" : "s", c->compiled, c->proven, c->skipped);
	sb_addf(sb, ", %d regression%s (and %d already failing before)", c->regressions,
		c->regressions == 1 ? "" : "s", failing);
}

static void print_json(const char *tree, const char *rev, const VerifyTuVec *v, const VerifyConfigVec *cfg,
		       int regressions)
{
	StrBuf sb = {0};
	sb_adds(&sb, "{\"tree\": ");
	json_string(&sb, tree);
	sb_adds(&sb, ", \"since\": ");
	json_string(&sb, rev);
	int failing = 0, compiled = 0, proven = 0, skipped = 0;
	for (int i = 0; i < v->n; i++) {
		failing += v->v[i].after && v->v[i].before;
		compiled += !v->v[i].proven && !v->v[i].skipped;
		proven += v->v[i].proven;
		skipped += v->v[i].skipped;
	}
	sb_addf(&sb, ", \"tus\": %d, \"compiled\": %d, \"proven\": %d, \"skipped\": %d, \"regressions\": %d, "
		"\"already_failing\": %d, \"configurations\": [",
		v->n, compiled, proven, skipped, regressions, failing);
	for (int c = 0; c < cfg->n; c++) {
		const VerifyConfig *k = &cfg->v[c];
		sb_adds(&sb, c ? ",\n  {\"build\": " : "\n  {\"build\": ");
		if (k->build)
			json_string(&sb, k->build);
		else
			sb_adds(&sb, "null");
		sb_adds(&sb, ", \"name\": ");
		json_string(&sb, k->label);
		sb_addf(&sb, ", \"verified\": %s, \"tus\": %d, \"compiled\": %d, \"proven\": %d, \"skipped\": %d, "
			"\"regressions\": %d, \"seconds\": %.2f}",
			k->verified ? "true" : "false", k->tus, k->compiled, k->proven, k->skipped, k->regressions,
			k->seconds);
	}
	sb_adds(&sb, "], \"results\": [");
	for (int i = 0; i < v->n; i++) {
		const VerifyTu *t = &v->v[i];
		sb_adds(&sb, i ? ",\n  {\"tu\": " : "\n  {\"tu\": ");
		json_string(&sb, t->tu);
		const char *status = t->skipped ? "skipped" : !t->after ? (t->proven ? "proven" : "ok")
					     : t->before == 0 ? "regression" : "already-failing";
		sb_addf(&sb, ", \"status\": \"%s\", \"configuration\": ", status);
		json_string(&sb, cfg->v[t->config].label);
		sb_addf(&sb, ", \"after\": %d, \"before\": %d, \"first_error\": ", t->after, t->before);
		if (t->first_error)
			json_string(&sb, t->first_error);
		else
			sb_adds(&sb, "null");
		sb_addc(&sb, '}');
	}
	sb_adds(&sb, "\n]}\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	free(sb.buf);
}

int cmd_verify(int argc, char **argv)
{
	/* verify's own options first; the rest are the shared ones */
	VerifyOpts vo = {0};
	const char *rev = "HEAD";
	bool jobs_given = false;
	char **rest = xcalloc((size_t)argc + 1, sizeof(char *));
	int nrest = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			while (i < argc)
				rest[nrest++] = argv[i++];
			break;
		}
		if (opt_is(a, "--cc-wrapper")) {
			vo.cc_wrapper = opt_value(argc, argv, &i, "--cc-wrapper", "verify");
		} else if (!strcmp(a, "--memo")) {
			vo.memo = true;
		} else if (!strcmp(a, "--fail-fast")) {
			vo.fail_fast = true;
		} else if (opt_is(a, "--since")) {
			rev = opt_value(argc, argv, &i, "--since", "verify");
		} else if (opt_is(a, "--timeout")) {
			const char *v = opt_value(argc, argv, &i, "--timeout", "verify");
			char *end;
			long t = strtol(v, &end, 10);
			if (!*v || *end || t < 0 || t > 1000000)
				die("verify: option '--timeout' needs a number of seconds");
			vo.timeout = (int)t;
		} else {
			if (!strncmp(a, "-j", 2) || opt_is(a, "--jobs"))
				jobs_given = true;
			rest[nrest++] = argv[i];
		}
	}
	Options o;
	options_parse(&o, nrest, rest, "verify", "--json,--build+");
	free(rest);
	vo.jobs = jobs_given ? o.jobs : 0;
	vo.quiet = o.quiet;
	if (o.args.n > 1)
		die("verify: one TREE at most (got '%s' and '%s')", o.args.v[0], o.args.v[1]);
	const char *tree = o.args.n ? o.args.v[0] : o.tree ? o.tree : ".";
	char *top = git_toplevel(tree);
	if (!top)
		die("verify: %s is not in a git work tree (verify compares it with a revision)", tree);
	char *hash = git_rev(top, rev);
	if (!hash)
		die("verify: '%s' is not a revision of %s", rev, top);
	Session s;
	session_open(&s, &o, tree, !o.build);
	VerifyTuVec out = {0};
	VerifyConfigVec cfg = {0};
	int regressions = verify_run(&s, top, rev, &vo, &out, &cfg);
	bool several = cfg.n > 1;
	int *failing = xcalloc((size_t)cfg.n + 1, sizeof(int));
	for (int i = 0; i < out.n; i++) {
		const VerifyTu *t = &out.v[i];
		if (!t->after || t->skipped)
			continue;
		char *where = several ? xasprintf(" in %s", cfg.v[t->config].label) : xstrdup("");
		if (t->before == 0) {
			if (!o.json)
				printf("%s: error: does not compile after the change%s: %s\n", t->tu, where,
				       t->first_error);
		} else {
			failing[t->config]++;
			if (!o.json)
				printf("%s: note: already failing before the change%s: %s\n", t->tu, where,
				       t->first_error);
		}
		free(where);
	}
	if (o.json) {
		print_json(s.ft.root, rev, &out, &cfg, regressions);
	} else {
		for (int c = 0; c < cfg.n; c++) {
			StrBuf sb = {0};
			if (several)
				sb_addf(&sb, "%s: ", cfg.v[c].label);
			if (cfg.v[c].verified)
				summary(&sb, &cfg.v[c], failing[c]);
			else
				sb_adds(&sb, "not verified (an earlier configuration regressed)");
			printf("verify: %s\n", sb_str(&sb));
			free(sb.buf);
		}
	}
	free(failing);
	verify_tus_free(&out);
	verify_configs_free(&cfg);
	session_close(&s);
	options_free(&o);
	free(top);
	free(hash);
	return regressions ? EXIT_FINDINGS : EXIT_OK;
}
