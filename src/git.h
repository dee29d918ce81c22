/*
 * git.h — the git plumbing that verify, fix and series stand on: is the
 * tree clean, what changed since a revision, what a file was at a
 * revision, and making branches and commits.  Every call runs
 * `git -C TREE ...` through proc.h; paths are relative to the top of the
 * work tree unless said otherwise.
 */
#ifndef HDRSLIM_GIT_H
#define HDRSLIM_GIT_H

#include <stdbool.h>

#include "config.h"
#include "util.h"

/* The top directory of the work tree holding dir, or NULL when dir is not
 * in a git work tree (or git is missing).  malloc'd, absolute. */
char *git_toplevel(const char *dir);
/* Tracked files with changes, staged or not (untracked files do not
 * count: they cannot be lost by a reset).  Returns their number. */
int git_dirty(const char *top, StrVec *paths);
/* Dies with a clear message unless the tree is clean: the refusal every
 * editing command shares ("commit or stash them, or --allow-dirty"). */
void git_require_clean(const char *top, const char *cmd);
/* Full hash of a revision, or NULL when it does not name a commit. */
char *git_rev(const char *top, const char *rev);
/* The checked-out branch name, NULL when HEAD is detached. */
char *git_branch(const char *top);
bool git_branch_exists(const char *top, const char *name);
/* Files that differ between rev and the work tree (changed, added,
 * deleted, renamed), and untracked new C sources and headers. */
void git_changed_since(const char *top, const char *rev, StrVec *paths);
/* The file's bytes at rev; false when it does not exist there. */
bool git_show(const char *top, const char *rev, const char *path, StrBuf *out);
/* git checkout -b name (from HEAD); dies on failure. */
void git_new_branch(const char *top, const char *name);
/* Stages paths (added, changed or deleted) and commits them with message;
 * returns the new commit's hash (malloc'd).  Dies on failure. */
char *git_commit(const char *top, const StrVec *paths, const char *message);
/* Puts the work tree and index back to rev (git reset --hard -q rev). */
bool git_reset_hard(const char *top, const char *rev);

/* Files that differ between two revisions (changed, added, deleted; a
 * rename counts as its two paths). */
void git_changed_between(const char *top, const char *rev1, const char *rev2, StrVec *paths);
/* A second work tree of top's repository at dir (absent or empty), with
 * rev checked out, detached; the user's own work tree and branches are
 * not touched.  False, with git's message in err, when git refuses.
 * The repository's hooks do not run. */
bool git_worktree_add(const char *top, const char *dir, const char *rev, StrBuf *err);
/* Checks rev out in a work tree made by git_worktree_add (only the files
 * that differ are written). */
bool git_worktree_checkout(const char *dir, const char *rev, StrBuf *err);
/* Removes such a work tree and git's record of it; true when it is gone. */
bool git_worktree_remove(const char *top, const char *dir);

#endif
