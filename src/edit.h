/*
 * edit.h — line edits on a file that keep every byte they do not touch.
 *
 * A file is loaded whole; edits are recorded against its original line
 * numbers (delete a line, insert lines before a line) and applied in one
 * go, so several edits never shift each other's positions.  Inserted lines
 * take the file's own line ending (\n or \r\n), and a file without a final
 * newline keeps lacking one.  Writing is atomic (a temporary file in the
 * same directory, renamed over the original) and keeps the file's mode.
 */
#ifndef HDRSLIM_EDIT_H
#define HDRSLIM_EDIT_H

#include <stdbool.h>
#include <sys/types.h>

#include "util.h"

typedef struct {
	int before;   /* original line number it goes before (nlines+1: at the end) */
	int seq;      /* order among insertions at the same place */
	char *text;   /* one line, without line ending */
} EditInsert;

typedef struct {
	char *path;       /* as given */
	char *data;       /* original bytes */
	size_t len;
	mode_t mode;
	bool exists;      /* false: a new file */
	bool crlf;        /* the file's lines end in \r\n */
	size_t *line_off; /* start of line i (1-based) at line_off[i-1]; line_off[nlines] = len */
	int nlines;
	bool *deleted;    /* by line, 1-based */
	VEC(EditInsert) ins;
	bool replaced;    /* whole new content in `repl` */
	StrBuf repl;
	/* What the file held when loaded: edit_rebase moves `data` on, these
	 * stay, for the diff, for undo and for telling whether it changed. */
	char *orig;
	size_t orig_len;
	bool orig_exists;
} EditFile;

/* Loads path.  A missing file is an empty new file when may_create,
 * else an error: returns false with a message in *err (malloc'd). */
bool edit_load(EditFile *e, const char *path, bool may_create, char **err);
void edit_free(EditFile *e);
/* Text of line n (1-based) without its line ending, malloc'd. */
char *edit_line(const EditFile *e, int n);
void edit_delete(EditFile *e, int line);
/* Inserts a line before original line `before` (nlines + 1: at the end). */
void edit_insert(EditFile *e, int before, const char *text);
/* Replaces the whole content (a new file, or one rewritten by a step). */
void edit_set_content(EditFile *e, const char *data, size_t len);
/* The edited text differs from what was loaded. */
bool edit_changed(const EditFile *e);
/* Makes the edited text the base of further edits (line numbers refer to
 * it from now on); the loaded text stays the reference for diff and undo. */
void edit_rebase(EditFile *e);
/* The edited bytes. */
void edit_render(const EditFile *e, StrBuf *out);
/* A unified diff from the loaded text (git style a/ b/ names). */
void edit_diff(const EditFile *e, const char *name, StrBuf *out);
/* Writes the edited bytes atomically; false with *err on failure. */
bool edit_write(const EditFile *e, char **err);

/* Atomic write of bytes to path with mode (temp + fsync + rename). */
bool write_file_atomic(const char *path, const char *data, size_t len, mode_t mode, char **err);

#endif
