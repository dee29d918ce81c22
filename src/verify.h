/*
 * verify.h — the compiler decides: which TUs a change touches, compiling
 * them with their own commands (-fsyntax-only, in parallel, as a GNU make
 * jobserver client when run under make), and telling a regression from a
 * TU that was already broken by compiling the failures again with the
 * old versions of the changed files, beside the work tree.  `verify` is a thin
 * command over this; `fix` and `series` call it after each edit.
 *
 * A TU's command comes, as everywhere in hdrslim, from
 * compile_commands.json, else from a Kbuild build directory (--build: the
 * savedcmd_ line of the object's .cmd file), else from the compiler and
 * the session's command-line flags.
 */
#ifndef HDRSLIM_VERIFY_H
#define HDRSLIM_VERIFY_H

#include <stdbool.h>

#include "session.h"

typedef struct {
	int jobs;               /* 0: all cores (cpu_count()), or what the make jobserver grants */
	const char *cc_wrapper; /* e.g. "ccache" or "distcc": words put before the compiler, NULL: none */
	int timeout;            /* seconds per TU, 0: none */
	bool quiet;             /* no notes on stderr (how many compile, the mirror's name) */
	const char *progress;   /* what the progress line counts, NULL: "TUs" */
	const char *mode;       /* the compiler's mode flag, NULL: "-fsyntax-only" (`measure` runs "-E") */
	const char *srctree;    /* Kbuild: the source tree the .cmd commands name; when the session's
				 * tree is another work tree of it (`measure` checks revisions out
				 * aside), the commands compile that tree instead.  NULL: as written */
	const char *source;     /* compile this file (an absolute path) in the TU's place: the TU
				 * lends its command (a header preprocessed alone with a real
				 * TU's flags).  NULL: the TU itself */
	const char *redirect_from; /* every path under this directory (the git top) in a command */
	const char *redirect_to;   /* names the same path under this one instead (the mirror the
				    * before-compile reads), NULL: none */
	const char *build;      /* the Kbuild directory whose commands and dependency lists
				 * are used, NULL: the session's first --build */
	bool memo;              /* preprocess first: a TU whose command and preprocessed output
				 * passed before is not compiled again (proofs.h) */
	bool fail_fast;         /* stop at the first regression; what is left is skipped */
	const int *order;       /* verify_compile: run the TUs in this order (indices), NULL: as given */
} VerifyOpts;

typedef struct {
	char *tu;          /* TU path as shown to the user (relative to the tree) */
	int after;         /* 0 compiled, else failed (compiler exit status; 124 timeout) */
	int before;        /* -1 not compiled (after was 0), 0 compiled before, else failed before too */
	char *first_error; /* the compiler's first error line after the change, or NULL */
	double seconds;    /* wall time of the compile (the last one run for it) */
	int config;        /* which configuration: index into the session's --build list */
	bool proven;       /* not compiled: its command and preprocessed output passed before */
	bool skipped;      /* not compiled: the run stopped at an earlier regression (after is 0) */
} VerifyTu;
typedef VEC(VerifyTu) VerifyTuVec;

/* One configuration's share of a verify_run. */
typedef struct {
	const char *build;  /* the --build directory as given, NULL: none (a compile database) */
	char *label;        /* what the user calls it: "build-arm64 (arm64)" */
	int tus;            /* affected TUs */
	int compiled;       /* compiles run after the change (not proven, not skipped) */
	int proven, skipped, regressions;
	double seconds;     /* wall time, before-compiles included */
	bool verified;      /* false: not reached (an earlier configuration regressed, fail_fast) */
} VerifyConfig;
typedef VEC(VerifyConfig) VerifyConfigVec;

/* Every TU of the session whose include closure contains one of the
 * changed files (paths relative to the tree top), or that is one of them.
 * With a Kbuild build directory, the objects whose dependency list (the
 * .cmd file fixdep wrote) names a changed file; sources the build does
 * not compile are left out.  The session must have been opened with its
 * tree walked (unless it has a build directory). */
void verify_affected(Session *s, const StrVec *changed, StrVec *tus);
/* The same in one Kbuild directory (NULL: the session's first --build). */
void verify_affected_in(Session *s, const char *build, const StrVec *changed, StrVec *tus);
/* Compiles the TUs (-fsyntax-only, each with its own command) in the
 * current state of the tree, in parallel; fills out[i].after/first_error. */
void verify_compile(Session *s, const StrVec *tus, const VerifyOpts *o, VerifyTuVec *out);
/* The whole check: files changed between rev and the work tree, the TUs
 * they affect, compiled after; every TU that fails is compiled again with
 * the rev version of the changed files, in a mirror of the work tree
 * under $TMPDIR (the work tree itself is never written), to tell a
 * regression (compiled before, fails after) from a TU that was already
 * broken.  A TU the change adds counts as compiling before.  Returns the
 * number of regressions.
 *
 * On SIGINT, SIGTERM or SIGHUP the compiles stop and the mirror is
 * removed; then the caller's own handler for the signal runs and verify
 * returns early (TUs it did not compile: after = 128 + signal, first_error
 * "interrupted"; no before-compile), or, without one, the process dies of
 * the signal. */
/*
 * This in every configuration the session has (each --build, in order;
 * one when there is at most one): a change passes only when it passes in
 * all.  The TUs affected in a configuration are compiled likeliest
 * failures first: those whose own text names identifiers the change
 * touches (its changed lines, and the headers an #include it removes
 * names).  With o->fail_fast the run stops at the first regression.  out
 * holds every configuration's TUs (VerifyTu.config); configs, when not
 * NULL, gets one entry per configuration. */
int verify_run(Session *s, const char *top, const char *rev, const VerifyOpts *o, VerifyTuVec *out,
	       VerifyConfigVec *configs);
void verify_configs_free(VerifyConfigVec *v);
void verify_tus_free(VerifyTuVec *v);

/* The command verify_compile runs for a TU (with o->mode), for a caller
 * that runs it itself: a NULL-terminated argv of malloc'd words and, in
 * *cwd, the directory to run it in.  NULL, with *error set (malloc'd),
 * when there is none (a Kbuild object the configuration does not build). */
char **verify_command(Session *s, const char *tu, const VerifyOpts *o, char **cwd, char **error);
void verify_command_free(char **argv);

#endif
