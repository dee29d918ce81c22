/*
 * lex.h — the per-file scanner.  One linear pass over a file's bytes finds
 * every preprocessor directive (skipping comments, string and character
 * literals and line continuations the way translation phases 1-3 do) and
 * returns the file's Facts.
 */
#ifndef HDRSLIM_LEX_H
#define HDRSLIM_LEX_H

#include <stddef.h>

#include "facts.h"

/* Reusable per-thread buffers, so lexing allocates once per file. */
typedef struct {
	Directive *dirs;
	size_t ndirs, cap_dirs;
	char *strs;
	size_t strs_len, cap_strs;
	char *line; /* the logical line being collected */
	size_t cap_line;
} LexScratch;

/* buf[len] must be readable and hold 0 (a sentinel).  Returns a malloc'd
 * Facts block.  Never fails: structural problems are recorded in
 * Facts.errors for the caller to report. */
Facts *lex_file(const char *buf, size_t len, LexScratch *scratch);
void lex_scratch_free(LexScratch *s);

#endif
