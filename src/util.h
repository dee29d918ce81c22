/*
 * util.h — the few low-level pieces every stage shares: fatal errors and
 * diagnostics with one wording, checked allocation, a growable array, a
 * bump arena, and lexical path helpers.
 *
 * Conventions (after git's usage.c): die() is for failures that stop the
 * run (exit 2); diag() reports a problem in the analysed code, never stops
 * the run, and marks the run so that it ends with exit status 1; BUG() is a
 * broken invariant of hdrslim itself (exit 70).
 */
#ifndef HDRSLIM_UTIL_H
#define HDRSLIM_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

enum {
	EXIT_OK = 0,
	EXIT_FINDINGS = 1, /* problems found in the analysed code */
	EXIT_FATAL = 2,    /* cannot run: usage, unreadable input */
	EXIT_BUG = 70,
};

_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void bug_at(const char *file, int line, const char *msg);
#define BUG(msg) bug_at(__FILE__, __LINE__, msg)

/* A diagnostic about the analysed code: "path:line: error: message".
 * line 0 omits the line.  Thread-safe; capped per run (--max-diags). */
void diag(const char *path, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void warn_at(const char *path, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern int diag_errors;      /* diag() calls so far */
extern int diag_seen;        /* diag() and warn_at() calls, shown or not */
/* While set on a thread, diag() only counts in diag_muted_count: the
 * errors of a walk that guesses a file's configuration (a header no
 * compile_commands.json entry includes, walked on its own) are not the
 * analysed code's. */
extern _Thread_local bool diag_muted;
extern int diag_muted_count; /* files with muted diagnostics */
/* While set on a thread, diag() drops what it is given, uncounted. */
extern _Thread_local bool diag_dropped;
extern int diag_limit;       /* print at most this many; count all */
extern bool warnings_enabled;

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* Zeroed like xcalloc, but every page written now: for a table that is
 * read before it is written (marks, hash slots).  A fresh calloc'd page
 * read first maps the shared zero page, and the write after it faults
 * again and flushes the other threads' TLBs. */
void *xzalloc_now(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Growable array: VEC(int) v = {0}; vec_push(&v, 3); v.v[0], v.n. */
/* Whether a command hands its memory back before the process exits.  Only
 * the sanitizer build does, for its leak check: otherwise the kernel takes
 * it all back at once, and a whole-kernel run saves a quarter of a second
 * of free() calls. */
#if defined(__SANITIZE_ADDRESS__)
#define FREE_AT_EXIT 1
#else
#define FREE_AT_EXIT 0
#endif

#define VEC(T) struct { T *v; int n, cap; }
#define vec_grow(vec, need)                                                  \
	do {                                                                 \
		if ((need) > (vec)->cap) {                                   \
			int c_ = (vec)->cap ? (vec)->cap : 8;                \
			while (c_ < (need))                                  \
				c_ *= 2;                                     \
			(vec)->v = xrealloc((vec)->v, (size_t)c_ * sizeof(*(vec)->v)); \
			(vec)->cap = c_;                                     \
		}                                                            \
	} while (0)
#define vec_push(vec, x)                                                     \
	do {                                                                 \
		vec_grow((vec), (vec)->n + 1);                               \
		(vec)->v[(vec)->n++] = (x);                                  \
	} while (0)
typedef VEC(int) IntVec;
typedef VEC(uint32_t) U32Vec;

#define vec_free(vec) (free((vec)->v), (vec)->v = NULL, (vec)->n = (vec)->cap = 0)

/* Bump arena: many small allocations, freed all at once. */
typedef struct ArenaBlock ArenaBlock;
typedef struct {
	ArenaBlock *head;
	size_t used_total;
} Arena;
void *arena_alloc(Arena *a, size_t n);
char *arena_strndup(Arena *a, const char *s, size_t n);
void arena_free(Arena *a);
/* Frees all but one block, kept for reuse: for an arena emptied over and
 * over (a fresh megabyte each time is a fresh megabyte of page faults). */
void arena_clear(Arena *a);

/* Growable byte buffer. */
typedef struct {
	char *buf;
	size_t len, cap;
} StrBuf;
void sb_add(StrBuf *sb, const char *s, size_t n);
void sb_addc(StrBuf *sb, char c);
void sb_adds(StrBuf *sb, const char *s);
void sb_addf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *sb_str(StrBuf *sb); /* NUL-terminated view */

/* Lexical path handling: no symlink resolution, like gcc's own paths. */
char *path_join(const char *dir, const char *name);          /* malloc'd, normalized */
void path_normalize(char *p);                                 /* in place */
char *path_dirname(const char *p);                            /* malloc'd; "." for none */
/* Takes "NAME VALUE" or "NAME=VALUE" out of argv: the value (malloc'd),
 * or NULL when absent.  cmd names the command in the error. */
char *option_value(int *argc, char **argv, const char *cmd, const char *name);
char *path_absolute(const char *p);                           /* against cwd, normalized */
bool path_has_prefix(const char *p, const char *dir);         /* p == dir or under dir */
bool ends_with(const char *s, const char *suffix);
/* Command-line options of the commands that parse their own: `a` is the
 * option `name` (alone or as name=value); its value, advancing *i past a
 * separate one (dies, naming cmd, when there is none). */
bool opt_is(const char *a, const char *name);
const char *opt_value(int argc, char **argv, int *i, const char *name, const char *cmd);
/* item is one of the words of a comma-separated list. */
bool list_has(const char *csv, const char *item);

/* Writes s as a JSON string literal (quotes and escapes included). */
/* Compressed rows from m (key, val) pairs, keys in [0, n): row i is
 * (*val_out)[(*off_out)[i] .. (*off_out)[i + 1]), in pair order. */
void csr_build(int n, const int *key, const int *val, int m, int **off_out, int **val_out);
/* A --kinds list ("a,b"): the bit set of the kinds named, by name(i) for
 * i < nkinds or short_name for short_kind; dflt when s is NULL; an unknown
 * kind is a usage error naming cmd and the known ones. */
unsigned kind_list_parse(const char *s, unsigned dflt, int nkinds, const char *(*name)(int), int short_kind,
			 const char *short_name, const char *cmd);
void json_string(StrBuf *out, const char *s);

double now_seconds(void);
/* Phase timer for --stats: closes the previous phase, opens `name`. */
void phase(const char *name);
void phase_report(void);
long peak_rss_kib(void);
uint64_t hash_bytes(const void *p, size_t n);                 /* xxh3 64 */
/* Reads up to n bytes from fd into buf, going on after EINTR and short
 * reads; returns how many it got (fewer at end of file or on error). */
size_t read_full(int fd, void *buf, size_t n);
int cpu_count(void);
/* Runs fn(arg) on `threads` threads at once (at most 64, the caller's
 * one of them) and waits for all; fewer when threads cannot be made. */
void run_threads(void *(*fn)(void *), void *arg, int threads);

#endif
