/*
 * apply.h — turning check's findings into edits: the #include lines that
 * go, the includes and forward declarations that take their place, and
 * the fallout on the includers that relied on what left.  A Change
 * gathers every edit of one commit, file by file, and can be written
 * (atomically, file by file), undone, or shown as a diff.
 */
#ifndef HDRSLIM_APPLY_H
#define HDRSLIM_APPLY_H

#include <stdbool.h>

#include "check.h"
#include "edit.h"
#include "session.h"

typedef struct {
	char *root;            /* paths below are relative to this directory */
	VEC(EditFile *) files; /* loaded on first use */
	VEC(char *) rel;       /* their paths relative to root */
	bool written;
} Change;

void change_init(Change *c, const char *root);
void change_free(Change *c);
/* The file at rel (relative to root), loaded on first use; NULL with *err
 * when it cannot be read (may_create: a missing file is a new one). */
EditFile *change_file(Change *c, const char *rel, bool may_create, char **err);
bool change_empty(const Change *c);
/* Writes every changed file; on a failure, puts back the ones already
 * written and returns false with *err. */
bool change_write(Change *c, char **err);
/* Puts every written file back to its original bytes (removes new ones). */
void change_undo(Change *c);
/* After a write: line numbers of further edits refer to the written text
 * (a step in stages: edit, write, look at the new state, edit more). */
void change_rebase(Change *c);
/* Unified diff of every changed file, paths relative to root. */
void change_diff(Change *c, StrBuf *out);
/* Absolute paths of the changed files (for git add). */
void change_paths(Change *c, StrVec *out);

/* The line a new `#include SPELLING` goes before: in the file's leading
 * include block (top level, or just inside the include guard), at its
 * sorted place among the includes of its group when those are sorted,
 * else after the group, else after the block; with no include, after the
 * guard's #define, else after the opening comment. */
int include_insert_before(const EditFile *e, const char *spelling);
/* The operand of an #include line, <x.h> or "x.h" (malloc'd), else NULL. */
char *include_operand(const char *line);
/* True when the file already has an `#include SPELLING` line. */
bool file_has_include(const EditFile *e, const char *spelling);
/* Adds `#include SPELLING` where include_insert_before says, unless the
 * file already has it (or this change already adds it). */
bool change_add_include(Change *c, const char *rel, const char *spelling, char **err);

/* Records the edits for one finding of a check on session s: false (and
 * *why) when the file no longer reads as the finding says. */
bool apply_finding(Session *s, Check *ck, const Finding *f, Change *c, char **why);
/* A kernel-style commit message for a finding: "PREFIX: Subject", a blank
 * line, the reason and evidence.  prefix NULL: the file's base name. */
void finding_message(Session *s, Check *ck, const Finding *f, const char *prefix, StrBuf *msg);
/* Appends text as a paragraph wrapped at 72 columns (commit bodies). */
void wrap_text(StrBuf *msg, const char *text);
/* How a path is named in a subject: <linux/x.h> for include/linux/x.h. */
char *display_name(const char *rel);

#endif
