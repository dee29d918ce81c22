/*
 * steps.c — landing one change: write, verify, commit; or put back.
 *
 * Interrupts only set a flag while a step is in flight: a step always
 * finishes as a commit or as an undo, never half-written, and the command
 * stops at the next step boundary with the branch at its last commit.
 */
#include "steps.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "git.h"
#include "proc.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

bool steps_interrupted(void)
{
	return got_signal != 0;
}

int steps_take_options(StepOpts *so, int argc, char **argv, const char *cmd, const char *allowed)
{
	memset(so, 0, sizeof(*so));
	/* a step that regressed is refused: compiling the rest proves nothing */
	so->vo.fail_fast = true;
	int out = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *eq = strchr(a, '=');
		size_t name_len = eq && a[0] == '-' && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
		char *name = xstrndup(a, name_len);
		const char *val = NULL;
		bool takes_value = !strcmp(name, "--cc-wrapper") || !strcmp(name, "--timeout") ||
				   !strcmp(name, "--prefix") || !strcmp(name, "--branch") ||
				   !strcmp(name, "--format-patch");
		if (!list_has(allowed, name) || !strcmp(a, "--")) {
			free(name);
			argv[out++] = argv[i];
			if (!strcmp(a, "--"))
				while (++i < argc)
					argv[out++] = argv[i];
			continue;
		}
		if (takes_value) {
			if (eq && name_len < strlen(a))
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				die("%s: option '%s' needs a value", cmd, name);
		}
		if (!strcmp(name, "--dry-run"))
			so->dry_run = true;
		else if (!strcmp(name, "--allow-dirty"))
			so->allow_dirty = true;
		else if (!strcmp(name, "--verify"))
			so->verify = true;
		else if (!strcmp(name, "--squash-per-file"))
			so->squash = true;
		else if (!strcmp(name, "--memo"))
			so->vo.memo = true;
		else if (!strcmp(name, "--cc-wrapper"))
			so->vo.cc_wrapper = val;
		else if (!strcmp(name, "--timeout")) {
			char *end;
			long t = strtol(val, &end, 10);
			if (*end || t < 0)
				die("%s: --timeout needs a number of seconds", cmd);
			so->vo.timeout = (int)t;
		} else if (!strcmp(name, "--prefix"))
			so->prefix = xstrdup(val);
		else if (!strcmp(name, "--branch"))
			so->branch = xstrdup(val);
		else if (!strcmp(name, "--format-patch"))
			so->format_patch = path_absolute(val);
		free(name);
	}
	argv[out] = NULL;
	return out;
}

void steps_free_options(StepOpts *so)
{
	free(so->prefix);
	free(so->branch);
	free(so->format_patch);
	memset(so, 0, sizeof(*so));
}

void steps_begin(Stepper *st, const char *cmd, Options *o, const char *tree, StepOpts *so)
{
	memset(st, 0, sizeof(*st));
	st->cmd = cmd;
	st->o = o;
	st->tree = tree;
	st->so = so;
	st->top = git_toplevel(tree);
	if (!st->top)
		die("%s: %s is not in a git work tree (the changes are made as commits)", cmd, tree);
	if (!so->allow_dirty)
		git_require_clean(st->top, cmd);
	st->start = git_rev(st->top, "HEAD");
	if (!st->start)
		die("%s: %s has no commit yet", cmd, st->top);
	if (so->branch) {
		if (git_branch_exists(st->top, so->branch))
			die("%s: branch %s already exists", cmd, so->branch);
		git_new_branch(st->top, so->branch);
	}
	so->vo.jobs = o->jobs;
	so->vo.quiet = true; /* the command reports each step itself */
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Reads all of fd, forwarding a signal that arrives meanwhile to pid. */
static void read_child(int fd, pid_t pid, StrBuf *out)
{
	bool forwarded = false;
	for (;;) {
		char buf[4096];
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR) {
			if (got_signal && !forwarded) {
				kill(pid, got_signal);
				forwarded = true;
			}
			continue;
		}
		if (r <= 0)
			break;
		sb_add(out, buf, (size_t)r);
	}
	if (got_signal && !forwarded)
		kill(pid, got_signal);
}

/* Verification runs in a child process: the compiles, the before-compile's
 * mirror and their signal handling are its own, so an interrupt
 * (forwarded to it) ends with the mirror removed by verify, and this
 * process then puts the step's own edits back.  The child reports one line
 * "REGRESSIONS COMPILED" and a line "TU<TAB>FIRST ERROR" per regression.
 * Returns 0 verified, 1 regression, 2 interrupted or verify failed. */
static int verify_in_child(Stepper *st, int *compiled, char **figures, char **why)
{
	int p[2];
	if (pipe(p))
		die("pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(p[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		Session s;
		session_open(&s, st->o, st->tree, true);
		VerifyTuVec res = {0};
		VerifyConfigVec cfg = {0};
		int regressions = verify_run(&s, st->top, "HEAD", &st->so->vo, &res, &cfg);
		StrBuf out = {0};
		int ok = 0;
		for (int i = 0; i < res.n; i++)
			ok += res.v[i].after == 0 && !res.v[i].skipped;
		sb_addf(&out, "%d %d\n", regressions, ok);
		/* the trailer's figures: per configuration when there are several */
		for (int c = 0; c < cfg.n; c++) {
			const VerifyConfig *k = &cfg.v[c];
			if (cfg.n > 1)
				sb_addf(&out, "%s%s: ", c ? "; " : "", k->label);
			sb_addf(&out, "%d TUs", k->tus);
			if (k->proven)
				sb_addf(&out, " (%d compiled, %d proven by identical earlier compiles)", k->compiled,
					k->proven);
		}
		sb_addc(&out, '\n');
		/* the run's own figures, wall time included */
		for (int c = 0; c < cfg.n; c++) {
			const VerifyConfig *k = &cfg.v[c];
			sb_addf(&out, "%s%s%s%d TUs, %d compiled, %d proven, %.1f s", c ? "; " : "",
				cfg.n > 1 ? k->label : "", cfg.n > 1 ? ": " : "", k->tus, k->compiled, k->proven,
				k->seconds);
		}
		sb_addc(&out, '\n');
		for (int i = 0; i < res.n; i++) {
			if (!res.v[i].after || res.v[i].before != 0 || res.v[i].skipped)
				continue;
			const char *e = res.v[i].first_error ? res.v[i].first_error : "does not compile";
			if (cfg.n > 1)
				sb_addf(&out, "%s (in %s)\t%.*s\n", res.v[i].tu, cfg.v[res.v[i].config].label,
					(int)strcspn(e, "\n"), e);
			else
				sb_addf(&out, "%s\t%.*s\n", res.v[i].tu, (int)strcspn(e, "\n"), e);
		}
		for (size_t off = 0; off < out.len;) {
			ssize_t w = write(p[1], out.buf + off, out.len - off);
			if (w <= 0)
				_exit(3);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(p[1]);
	StrBuf out = {0};
	read_child(p[0], pid, &out);
	close(p[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
		else if (got_signal)
			kill(pid, got_signal);
	int regressions = -1;
	*compiled = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && out.len)
		sscanf(sb_str(&out), "%d %d", &regressions, compiled);
	int r;
	if (got_signal) {
		*why = xstrdup("interrupted");
		r = 2;
	} else if (regressions < 0) {
		*why = WIFSIGNALED(status) ? xasprintf("verification was killed by signal %d", WTERMSIG(status))
					   : xasprintf("verification could not run (exit status %d)",
						       WEXITSTATUS(status));
		r = 2;
	} else if (regressions > 0) {
		const char *first = strchr(sb_str(&out), '\n');
		first = first ? strchr(first + 1, '\n') : NULL;
		first = first ? strchr(first + 1, '\n') : NULL;
		char *line = first ? xstrndup(first + 1, strcspn(first + 1, "\n")) : xstrdup("");
		char *tab = strchr(line, '\t');
		if (tab) {
			*tab = 0;
			*why = xasprintf("%s: %s", line, tab + 1);
		} else {
			*why = xstrdup("verification failed");
		}
		free(line);
		r = 1;
	} else {
		const char *line = strchr(sb_str(&out), '\n');
		*figures = line ? xstrndup(line + 1, strcspn(line + 1, "\n")) : xstrdup("");
		const char *times = line ? strchr(line + 1, '\n') : NULL;
		free(st->verify_times);
		st->verify_times = times ? xstrndup(times + 1, strcspn(times + 1, "\n")) : NULL;
		r = 0;
	}
	free(out.buf);
	return r;
}

int steps_land(Stepper *st, Change *c, const char *msg, char **why)
{
	if (change_empty(c))
		return 3;
	if (!change_write(c, why))
		return 2;
	StrBuf full = {0};
	sb_adds(&full, msg);
	if (st->so->verify || got_signal) {
		int compiled = 0;
		char *figures = NULL;
		int v = got_signal ? 2 : verify_in_child(st, &compiled, &figures, why);
		if (got_signal && !*why)
			*why = xstrdup("interrupted");
		if (v) {
			change_undo(c);
			free(full.buf);
			st->failed++;
			return 1;
		}
		st->verified_tus += compiled;
		if (st->o->builds.n > 1 || (figures && strchr(figures, '(')))
			sb_addf(&full, "\nVerified: %s\n", figures);
		else
			sb_addf(&full, "\nVerified: %d TUs compiled\n", compiled);
		free(figures);
	}
	StrVec paths = {0};
	change_paths(c, &paths);
	char *hash = git_commit(st->top, &paths, sb_str(&full));
	for (int i = 0; i < paths.n; i++)
		free(paths.v[i]);
	vec_free(&paths);
	free(hash);
	free(full.buf);
	st->commits++;
	return 0;
}

void steps_end(Stepper *st)
{
	free(st->verify_times);
	st->verify_times = NULL;
	if (st->so->format_patch && st->commits) {
		char *range = xasprintf("%s..HEAD", st->start);
		const char *argv[] = {"git", "-C", st->top, "format-patch", "-q", "-o", st->so->format_patch,
				      range, NULL};
		StrBuf err = {0};
		if (proc_run(argv, NULL, NULL, NULL, &err))
			die("%s: git format-patch: %s", st->cmd, sb_str(&err));
		free(err.buf);
		free(range);
	}
	free(st->top);
	free(st->start);
}
