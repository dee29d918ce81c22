/*
 * git.c — thin wrappers over the git command line.  Output is parsed in
 * its -z forms so that no path needs unquoting.
 */
#include "git.h"

#include <string.h>

#include "proc.h"

static int git(const char *top, const char *const *args, const char *input,
	       StrBuf *out, StrBuf *err)
{
	const char *argv[32];
	int n = 0;
	argv[n++] = "git";
	if (top) {
		argv[n++] = "-C";
		argv[n++] = top;
	}
	for (int i = 0; args[i]; i++) {
		if (n >= 31)
			BUG("too many git arguments");
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	return proc_run(argv, NULL, input, out, err);
}

static char *trimmed(StrBuf *sb)
{
	const char *s = sb_str(sb);
	size_t n = sb->len;
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	return xstrndup(s, n);
}

char *git_toplevel(const char *dir)
{
	StrBuf out = {0};
	const char *args[] = {"rev-parse", "--show-toplevel", NULL};
	char *top = NULL;
	if (git(dir, args, NULL, &out, NULL) == 0 && out.len)
		top = trimmed(&out);
	free(out.buf);
	return top;
}

/* Splits NUL-separated records into paths; porcelain records skip `skip`
 * leading bytes (the status letters). */
static void split_z(const StrBuf *sb, int skip, StrVec *paths)
{
	for (size_t i = 0; i < sb->len;) {
		const char *rec = sb->buf + i;
		size_t n = strnlen(rec, sb->len - i);
		if (n > (size_t)skip)
			vec_push(paths, xstrdup(rec + skip));
		i += n + 1;
	}
}

int git_dirty(const char *top, StrVec *paths)
{
	StrBuf out = {0};
	const char *args[] = {"status", "--porcelain", "-z", "--untracked-files=no", NULL};
	if (git(top, args, NULL, &out, NULL) != 0)
		die("%s: git status failed (is this a git work tree?)", top);
	int before = paths->n;
	/* Records are "XY path"; a rename adds a second record (the source). */
	for (size_t i = 0; i < out.len;) {
		const char *rec = out.buf + i;
		size_t n = strnlen(rec, out.len - i);
		if (n > 3)
			vec_push(paths, xstrdup(rec + 3));
		i += n + 1;
		if (n > 1 && (rec[0] == 'R' || rec[0] == 'C') && i < out.len)
			i += strnlen(out.buf + i, out.len - i) + 1;
	}
	free(out.buf);
	return paths->n - before;
}

void git_require_clean(const char *top, const char *cmd)
{
	StrVec dirty = {0};
	int n = git_dirty(top, &dirty);
	if (n)
		die("%s: %s has %d uncommitted change%s (first: %s); commit or stash "
		    "them, or pass --allow-dirty", cmd, top, n, n == 1 ? "" : "s", dirty.v[0]);
	free(dirty.v);
}

char *git_rev(const char *top, const char *rev)
{
	char *spec = xasprintf("%s^{commit}", rev);
	const char *args[] = {"rev-parse", "-q", "--verify", spec, NULL};
	StrBuf out = {0};
	char *hash = NULL;
	if (git(top, args, NULL, &out, NULL) == 0 && out.len)
		hash = trimmed(&out);
	free(out.buf);
	free(spec);
	return hash;
}

char *git_branch(const char *top)
{
	const char *args[] = {"symbolic-ref", "-q", "--short", "HEAD", NULL};
	StrBuf out = {0};
	char *name = NULL;
	if (git(top, args, NULL, &out, NULL) == 0 && out.len)
		name = trimmed(&out);
	free(out.buf);
	return name;
}

bool git_branch_exists(const char *top, const char *name)
{
	char *ref = xasprintf("refs/heads/%s", name);
	const char *args[] = {"show-ref", "-q", "--verify", ref, NULL};
	bool ok = git(top, args, NULL, NULL, NULL) == 0;
	free(ref);
	return ok;
}

void git_changed_since(const char *top, const char *rev, StrVec *paths)
{
	StrBuf out = {0};
	const char *args[] = {"diff", "--name-only", "-z", "--no-renames", rev, "--", NULL};
	if (git(top, args, NULL, &out, NULL) != 0)
		die("%s: git diff %s failed (is it a revision?)", top, rev);
	split_z(&out, 0, paths);
	out.len = 0;
	/* New files count when they are C sources or headers (a header a
	 * step creates); logs and other untracked files the user has in the
	 * tree are none of a compile's business. */
	const char *untracked[] = {"ls-files", "-z", "--others", "--exclude-standard", NULL};
	StrVec others = {0};
	out.len = 0;
	if (git(top, untracked, NULL, &out, NULL) == 0)
		split_z(&out, 0, &others);
	for (int i = 0; i < others.n; i++) {
		const char *p = others.v[i];
		if (ends_with(p, ".c") || ends_with(p, ".h") || ends_with(p, ".S") || ends_with(p, ".inc") ||
		    ends_with(p, ".def"))
			vec_push(paths, others.v[i]);
		else
			free(others.v[i]);
	}
	vec_free(&others);
	free(out.buf);
}

bool git_show(const char *top, const char *rev, const char *path, StrBuf *out)
{
	char *spec = xasprintf("%s:%s", rev, path);
	const char *args[] = {"cat-file", "blob", spec, NULL};
	out->len = 0;
	bool ok = git(top, args, NULL, out, NULL) == 0;
	free(spec);
	return ok;
}

void git_new_branch(const char *top, const char *name)
{
	StrBuf err = {0};
	const char *args[] = {"checkout", "-q", "-b", name, NULL};
	if (git(top, args, NULL, NULL, &err) != 0)
		die("git checkout -b %s: %s", name, sb_str(&err));
	free(err.buf);
}

char *git_commit(const char *top, const StrVec *paths, const char *message)
{
	StrBuf err = {0};
	for (int i = 0; i < paths->n; i++) {
		const char *add[] = {"add", "-A", "--", paths->v[i], NULL};
		if (git(top, add, NULL, NULL, &err) != 0)
			die("git add %s: %s", paths->v[i], sb_str(&err));
	}
	const char *commit[] = {"commit", "-q", "--no-verify", "-F", "-", NULL};
	if (git(top, commit, message, NULL, &err) != 0)
		die("git commit: %s", sb_str(&err));
	free(err.buf);
	return git_rev(top, "HEAD");
}

bool git_reset_hard(const char *top, const char *rev)
{
	const char *args[] = {"reset", "-q", "--hard", rev, NULL};
	return git(top, args, NULL, NULL, NULL) == 0;
}

void git_changed_between(const char *top, const char *rev1, const char *rev2, StrVec *paths)
{
	StrBuf out = {0};
	const char *args[] = {"diff", "--name-only", "-z", "--no-renames", rev1, rev2, "--", NULL};
	if (git(top, args, NULL, &out, NULL) != 0)
		die("%s: git diff %s %s failed (are they revisions?)", top, rev1, rev2);
	split_z(&out, 0, paths);
	free(out.buf);
}

bool git_worktree_add(const char *top, const char *dir, const char *rev, StrBuf *err)
{
	/* no hooks: a post-checkout hook of the user's is for the user's
	 * checkouts, not for a scratch copy */
	const char *args[] = {"-c", "core.hooksPath=/dev/null", "worktree", "add", "-q", "--detach",
			      dir, rev, NULL};
	return git(top, args, NULL, NULL, err) == 0;
}

bool git_worktree_checkout(const char *dir, const char *rev, StrBuf *err)
{
	const char *args[] = {"-c", "core.hooksPath=/dev/null", "checkout", "-q", "--detach", rev, NULL};
	return git(dir, args, NULL, NULL, err) == 0;
}

bool git_worktree_remove(const char *top, const char *dir)
{
	/* twice --force: also when it is locked or holds changes */
	const char *args[] = {"worktree", "remove", "--force", "--force", dir, NULL};
	bool ok = git(top, args, NULL, NULL, NULL) == 0;
	/* a half-made one (interrupted while checking out) is only a record */
	const char *prune[] = {"worktree", "prune", NULL};
	git(top, prune, NULL, NULL, NULL);
	return ok;
}
