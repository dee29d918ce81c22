/*
 * cmd_fix.c — `hdrslim fix [OPTIONS] [TREE] [FILE...]`: applies check's
 * findings, one git commit each (or one per file with --squash-per-file),
 * each verified by the compiler with --verify; --dry-run prints the diff.
 *
 * Findings interact (a redundant include stops being redundant when the
 * include it came through goes), so fix works in rounds: one check, then
 * at most one finding per file among files that no other chosen finding
 * touches, then a fresh check on the new state, until nothing is left or
 * only findings that already failed.  A change that fails verification is
 * put back and skipped; the run goes on with the rest.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "apply.h"
#include "check.h"
#include "commands.h"
#include "progress.h"
#include "steps.h"

#define MAX_ROUNDS 64

/* A change made from this round's check, waiting to land. */
typedef struct {
	Change c;
	StrBuf msg;
	bool ok;
	char *why;
} Pending;

/* A finding's identity across rounds (ids change, text does not). */
static char *finding_key(Session *s, Check *ck, const Finding *f)
{
	char *inc = f->dir >= 0 ? check_written(ck, f->file, f->dir) : NULL;
	StrBuf sym = {0};
	if (f->kind == FK_MISSING)
		check_sym_text(ck, f->sym, &sym);
	char *k = xasprintf("%s|%d|%s|%s", session_path(s, f->file), f->kind, inc ? inc : "",
			    sym.buf ? sym.buf : "");
	free(sym.buf);
	free(inc);
	return k;
}

static bool seen(const StrVec *v, const char *k)
{
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], k))
			return true;
	return false;
}

static bool touched(const IntVec *files, int f)
{
	for (int i = 0; i < files->n; i++)
		if (files->v[i] == f)
			return true;
	return false;
}

/* Picks this round's findings: one per file, none touching a file that
 * another chosen finding edits (its own file or its fallout). */
static void choose(const FindingVec *fv, unsigned kinds, Session *s, Check *ck, const StrVec *done,
		   bool squash, IntVec *chosen)
{
	IntVec busy = {0};
	for (int i = 0; i < fv->n; i++) {
		const Finding *f = &fv->v[i];
		if (!(kinds & (1u << f->kind)))
			continue;
		char *k = finding_key(s, ck, f);
		bool skip = seen(done, k);
		free(k);
		if (skip)
			continue;
		bool same_file_ok = squash && chosen->n && fv->v[chosen->v[chosen->n - 1]].file == f->file &&
				    f->kind != FK_REDUNDANT;
		if (touched(&busy, f->file) && !same_file_ok)
			continue;
		bool clash = false;
		for (int k2 = 0; k2 < f->fallout.n && !clash; k2++)
			clash = touched(&busy, f->fallout.v[k2].file);
		if (clash)
			continue;
		vec_push(chosen, i);
		vec_push(&busy, f->file);
		for (int k2 = 0; k2 < f->fallout.n; k2++)
			vec_push(&busy, f->fallout.v[k2].file);
	}
	vec_free(&busy);
}

int cmd_fix(int argc, char **argv)
{
	StepOpts so;
	argc = steps_take_options(&so, argc, argv, "fix",
				  "--dry-run,--allow-dirty,--verify,--memo,--cc-wrapper,--timeout,--prefix,--branch,"
				  "--squash-per-file");
	Options o;
	options_parse(&o, argc, argv, "fix", "--kinds,--policy,--mapping,--decl-macro,--build+");
	/* Edits must hold in every configuration: the analysis is union mode
	 * unless told otherwise; the compiler checks the configured build. */
	if (!o.mode)
		o.mode = 2;
	unsigned kinds = check_parse_kinds(o.kinds, 1u << FK_UNUSED | 1u << FK_REPLACEABLE | 1u << FK_REDUNDANT, "fix");
	bool strict = o.policy && !strcmp(o.policy, "strict");
	if (o.policy && !strict && strcmp(o.policy, "minimal"))
		die("fix: unknown policy '%s' (minimal, strict)", o.policy);
	const char *tree = o.tree ? o.tree : ".";
	int first_file = 0;
	struct stat st_;
	if (o.args.n && stat(o.args.v[0], &st_) == 0 && S_ISDIR(st_.st_mode)) {
		tree = o.args.v[0];
		first_file = 1;
	}
	for (int i = first_file; i < o.args.n; i++)
		if (stat(o.args.v[i], &st_) < 0)
			die("fix: %s: No such file or directory", o.args.v[i]);
	/* The files are named again each round: make them absolute now. */
	StrVec names = {0};
	for (int i = first_file; i < o.args.n; i++)
		vec_push(&names, path_absolute(o.args.v[i]));

	Stepper st = {0};
	if (!so.dry_run)
		steps_begin(&st, "fix", &o, tree, &so);
	StrVec done = {0};
	int applied = 0, dropped = 0, stale = 0, status = EXIT_OK;
	bool more = false;
	o.index_ahead = true; /* check_new reads every file's symbols */
	for (int round = 0; round < MAX_ROUNDS && !steps_interrupted(); round++) {
		Session s;
		IntVec files = {0};
		check_open_session(&s, &o, tree, names.v, names.n, &files);
		Check *ck = check_new(&s, kinds, strict);
		if (o.mapping)
			check_load_mapping(ck, o.mapping);
		FindingVec fv = {0};
		check_run(ck, files.v, files.n, &fv);
		IntVec chosen = {0};
		choose(&fv, kinds, &s, ck, &done, so.squash, &chosen);
		/* The round's changes are made while the session is open; they
		 * land after it is closed (verification forks). In a squash,
		 * the findings of one file form one change. */
		VEC(Pending) pend = {0};
		for (int c0 = 0; c0 < chosen.n;) {
			int c1 = c0 + 1;
			while (so.squash && c1 < chosen.n && fv.v[chosen.v[c1]].file == fv.v[chosen.v[c0]].file)
				c1++;
			vec_grow(&pend, pend.n + 1);
			Pending *pd = &pend.v[pend.n++];
			memset(pd, 0, sizeof(*pd));
			Change *cp = &pd->c;
			change_init(cp, tree);
			StrBuf msg = {0};
			bool ok = true;
			char *why = NULL;
			for (int k = c0; k < c1 && ok; k++) {
				const Finding *f = &fv.v[chosen.v[k]];
				char *key = finding_key(&s, ck, f);
				vec_push(&done, key);
				ok = apply_finding(&s, ck, f, cp, &why);
				StrBuf one = {0};
				finding_message(&s, ck, f, so.prefix, &one);
				if (c1 - c0 == 1) {
					sb_adds(&msg, sb_str(&one));
				} else {
					if (k == c0) {
						char *who = display_name(session_path(&s, f->file));
						const char *rel = session_path(&s, f->file);
						const char *b = strrchr(rel, '/');
						char *pre = so.prefix ? xstrdup(so.prefix) : xstrdup(b ? b + 1 : rel);
						char *dot = so.prefix ? NULL : strrchr(pre, '.');
						if (dot)
							*dot = 0;
						sb_addf(&msg, "%s: Clean up the includes of %s\n\n", pre, who);
						free(pre);
						free(who);
					}
					/* each finding's subject becomes a paragraph */
					const char *body = strstr(sb_str(&one), "\n\n");
					const char *colon = strstr(one.buf, ": ");
					size_t sublen = (size_t)(body - one.buf);
					const char *subj = colon && colon < body ? colon + 2 : one.buf;
					sb_addf(&msg, "- %.*s\n", (int)(sublen - (size_t)(subj - one.buf)), subj);
					sb_addf(&msg, "%s\n", body + 2);
				}
				free(one.buf);
			}
			pd->ok = ok;
			pd->why = why;
			pd->msg = msg;
			c0 = c1;
		}
		more = chosen.n > 0;
		vec_free(&chosen);
		findings_free(&fv);
		check_free(ck);
		vec_free(&files);
		session_close(&s);
		Progress *pr = so.dry_run ? NULL : progress_begin(NULL, "changes", pend.n);
		for (int i = 0; i < pend.n; i++) {
			Pending *pd = &pend.v[i];
			StrBuf msg = pd->msg;
			char *why = pd->why;
			const char *subject_end = strchr(sb_str(&msg), '\n');
			int sublen = subject_end ? (int)(subject_end - msg.buf) : (int)msg.len;
			int r = -1;
			if (!steps_interrupted() && pd->ok && !so.dry_run)
				r = steps_land(&st, &pd->c, msg.buf, &why);
			progress_pause();
			if (steps_interrupted() && r < 0) {
				/* not started: nothing to undo */
			} else if (!pd->ok) {
				printf("fix: skipped: %s\n", why);
				stale++;
			} else if (so.dry_run) {
				StrBuf diff = {0};
				change_diff(&pd->c, &diff);
				printf("# %.*s\n%s", sublen, msg.buf, sb_str(&diff));
				free(diff.buf);
				applied++;
			} else {
				if (r == 0) {
					printf("fix: %.*s\n", sublen, msg.buf);
					applied++;
				} else if (r == 1 && steps_interrupted()) {
					printf("fix: interrupted: %.*s was put back\n", sublen, msg.buf);
				} else if (r == 1) {
					printf("fix: dropped: %.*s: %s\n", sublen, msg.buf, why);
					dropped++;
				} else if (r == 2) {
					progress_resume();
					die("fix: %s", why);
				}
			}
			fflush(stdout);
			progress_resume();
			progress_add(pr, 1);
			free(why);
			free(msg.buf);
			change_free(&pd->c);
		}
		progress_end(pr);
		vec_free(&pend);
		/* A dry run shows one round: later ones depend on these edits. */
		if (!more || so.dry_run)
			break;
	}
	if (so.dry_run) {
		fprintf(stderr, "fix: %d change%s shown%s\n", applied, applied == 1 ? "" : "s",
			more && applied ? " (more may follow once these are applied)" : "");
	} else {
		fprintf(stderr, "fix: %d commit%s, %d dropped (failed verification), %d skipped",
			applied, applied == 1 ? "" : "s", dropped, stale);
		if (so.verify)
			fprintf(stderr, ", %d TUs verified", st.verified_tus);
		fputc('\n', stderr);
		steps_end(&st);
	}
	if (steps_interrupted()) {
		fprintf(stderr, "fix: interrupted; the branch is at the last commit made and the tree is clean\n");
		status = 130;
	} else if (dropped) {
		status = EXIT_FINDINGS;
	}
	for (int i = 0; i < done.n; i++)
		free(done.v[i]);
	vec_free(&done);
	for (int i = 0; i < names.n; i++)
		free(names.v[i]);
	vec_free(&names);
	steps_free_options(&so);
	options_free(&o);
	return status;
}
