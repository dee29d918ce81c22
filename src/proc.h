/*
 * proc.h — running other programs (git, the compiler, make) without a
 * shell: argv in, exit status and captured output back.  The editing
 * commands drive git and the compiler through here, so quoting never
 * depends on what a path contains.
 */
#ifndef HDRSLIM_PROC_H
#define HDRSLIM_PROC_H

#include "util.h"

/* Runs argv (argv[0] looked up in PATH) in directory cwd (NULL: ours),
 * feeding `input` (NULL: /dev/null) on stdin and capturing stdout and
 * stderr when out/err are non-NULL (else they are discarded).  Returns the
 * exit status, 128+N when killed by signal N, 127 when it cannot start. */
int proc_run(const char *const *argv, const char *cwd, const char *input,
	     StrBuf *out, StrBuf *err);

/* The first line of text that looks like a compiler error ("error:"),
 * else the first non-empty line; malloc'd, "" when there is none. */
char *proc_first_error(const char *text);

#endif
