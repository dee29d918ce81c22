/*
 * ppcount.h — what the compiler makes of a header alone.  The header is
 * preprocessed by itself (a one-line source that includes it, run with a
 * real TU's command in -E mode, so with the configuration's flags), and
 * its output lines are counted as `gcc -E -P` prints them: non-blank
 * lines.  gcc's linemarkers say which file and line each output line
 * came from, so a plan that cuts an #include or moves declarations to
 * another header can predict the count after it from the counts of the
 * files and lines that stay.
 */
#ifndef HDRSLIM_PPCOUNT_H
#define HDRSLIM_PPCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"

typedef struct {
	uint32_t line, n; /* n output lines came from this source line */
} PpLine;

typedef struct {
	char *path;       /* absolute, normalized */
	uint64_t lines;   /* its non-blank output lines */
	VEC(PpLine) by_line;
} PpFile;

typedef struct {
	char *flags_from; /* the TU whose command was used (relative to the tree);
			   * NULL: the session's own flags (-I, compile_flags.txt) */
	uint64_t total;   /* non-blank output lines: gcc -E -P | grep -c . */
	int headers;      /* distinct files the output came from, the source itself aside */
	VEC(PpFile) files;
} PpCount;

/* Preprocesses the header at abs alone with the command of the TU
 * flags_tu (NULL: a TU of the session's build that includes the header;
 * kernel/fork.c in a kernel tree).  False with *err (malloc'd) when there
 * is no command or the compiler fails. */
bool ppcount_header(Session *s, const char *abs, const char *flags_tu, PpCount *out, char **err);
/* The output lines that came from the file at abs (0 when none). */
uint64_t ppcount_file(const PpCount *pc, const char *abs);
/* ... from lines first..last of it. */
uint64_t ppcount_span(const PpCount *pc, const char *abs, int first, int last);
void ppcount_free(PpCount *pc);

#endif
