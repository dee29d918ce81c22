/*
 * session.h — what every subcommand does before and after its own work:
 * read the shared options, set up the file table, the configuration
 * (command line, compile_commands.json or the kernel preset), the cache,
 * and produce the TUs' graphs in exact or union mode.
 */
#ifndef HDRSLIM_SESSION_H
#define HDRSLIM_SESSION_H

#include <pthread.h>
#include <stdbool.h>

#include "config.h"
#include "fs.h"
#include "graph.h"
#include "incpath.h"
#include "kernel.h"
#include "pp.h"

typedef struct {
	FlagSet flags;
	char *tree;        /* -C / --tree, or a positional TREE */
	char *compdb;
	char *build;       /* the first --build: the configuration the analysis reads */
	StrVec builds;     /* every --build, in order (verify, fix, series and dead
			    * --apply check each configuration; other commands
			    * take one) */
	char *kernel_arch;
	int kernel;        /* -1 auto, 0 --no-kernel, 1 --kernel */
	int mode;          /* 0 auto, 1 exact, 2 union */
	bool no_cache, clear_cache, stats, show_config, quiet;
	int jobs;
	int progress;      /* -1 when stderr is a terminal, 0 --no-progress (or -q), 1 --progress */
	/* command options */
	bool make_rules, missing_ok, json;
	bool dot;          /* deps, why, cost: a Graphviz digraph */
	bool no_memo;      /* cost: compute again even if no input changed */
	bool index_ahead;  /* check_open_session: the run will check the whole
			    * tree, so index every file's symbols while the
			    * graph is built */
	char *sort;
	char *kinds, *policy; /* check */
	char *mapping;        /* check: private -> public header mapping file */
	int top, max;
	StrVec args;       /* positional arguments */
} Options;

/* Parses argv (after the subcommand name).  `extra` lists the command's
 * own options, e.g. "--make,-MG"; anything else unknown is a usage error.
 * "--build+" in it lets --build be given more than once. */
void options_parse(Options *o, int argc, char **argv, const char *cmd, const char *extra);
void options_free(Options *o);

/* A cache written on a thread of its own (session_save_*_early). */
typedef struct {
	pthread_t thread;
	bool running;
} CacheSaver;

typedef struct {
	Options *opt;
	FileTable ft;
	Config cfg;
	Interner *names;
	IncPath *ip;
	Kernel *kernel;
	Graph *graph;  /* union mode */
	Pp *pp;        /* exact mode */
	int exact_met_from; /* exact mode, after check's walk of every root:
			     * files from this id on were first met inside a
			     * closure (0: no such walk) */
	IntVec exact_from, exact_to; /* ... and the include edges those walks
				      * took (file ids; each once in the first
				      * exact_unique, sorted) */
	int exact_unique;
	uint8_t *exact_seen; /* ... and by file id, whether one of them met it */
	int nexact_seen;
	/* ... and, by file id, each root's walk, kept (within a budget of
	 * memory) for the analyses' walks of the same root in the same
	 * context (session_tu restores it instead of walking again) */
	struct KeptWalk **kept;
	int nkept;
	size_t kept_bytes;
	int default_ctx;
	bool compdb;       /* the units are compile_commands.json entries */
	/* by file id the context of its unit, by directory key that of the
	 * first unit in it (-1 none); built by session_ctx_for_file for
	 * nunits_mapped units */
	int *unit_ctx, nunit_ctx;
	int *dir_ctx, ndir_ctx;
	int nunits_mapped;
	bool walked;
	bool units_only; /* session_prepare reads only the units' files, not
			  * every file walked (the graph reads the rest of
			  * their closures as it meets them) */
	/* by file id: the files a run about a few files needs (their
	 * closures); NULL when the run needs the whole tree */
	uint8_t *scope;
	int nscope;
	double t_start;
	bool lexed;        /* session_lex has run */
	uint64_t memo_key; /* inputs of a kept result (memo.c); 0: none */
	/* write the facts and symbols caches while the analyses run */
	CacheSaver facts_saver, syms_saver;
	/* symbol names indexed while the graph was built (check.c), and how
	 * to free them when no check takes them */
	struct ProvideIndex *provides;
	void (*provides_free)(struct ProvideIndex *);
	/* the process exits after session_close: it leaves the memory to the
	 * kernel unless FREE_AT_EXIT */
	bool last;
} Session;

/* Whether the run needs file's symbols (see Session.scope). */
static inline bool session_in_scope(const Session *s, int file)
{
	return !s->scope || (file < s->nscope && s->scope[file]);
}

/* Sets up a session for the tree.  walk: list the whole tree. */
void session_open(Session *s, Options *o, const char *tree, bool walk);
/* The unit for a file named by the user (dies if it does not exist). */
Unit session_unit_for_path(Session *s, const char *path);
/* Every TU of the tree: compile_commands.json entries or all .c files. */
void session_all_units(Session *s);
/* Lexes what the units need, in parallel (once). */
void session_lex(Session *s, const Unit *units, int n);
/* session_lex, then prepares the graph. */
void session_prepare(Session *s, const Unit *units, int n);
/* A unit's graph (exact walk or union closure).  Union: thread-safe. */
void session_tu(Session *s, const Unit *u, TuGraph *g);
/* Exact mode: the unit's walk with its own #include at directive index
 * dir left out (pp_walk_without). */
void session_tu_without(Session *s, const Unit *u, TuGraph *g, int dir);
/* Only the CSR view (succ, post): cheaper in union mode. */
void session_tu_csr(Session *s, const Unit *u, TuGraph *g);
/* Whether the file is one of the units (a compile_commands.json entry). */
bool session_is_unit(Session *s, int file);
/* Exact mode with a compile database or a Kbuild directory: whether the
 * file's walk as a root of its own has a guessed command (a header, a .c
 * file no entry or object compiles), so that its errors are not the
 * tree's. */
bool session_command_guessed(Session *s, int file);
/* After session_exact_walk: whether some root's walk met the file (true
 * when there was no walk). */
bool session_exact_reached(const Session *s, int file);
/* The context (flags, search chain) a file is analysed with. */
int session_ctx_for_file(Session *s, int file);
/* Path as shown to the user: relative to the tree when inside it. */
const char *session_path(Session *s, int file);
/* Every file the run needs is lexed: write the cache now, on a thread of
 * its own, while the analyses work.  No file may be lexed after this. */
void session_save_cache_early(Session *s);
/* The same for the symbol facts: every file's the run needs are read and
 * no more will be. */
void session_save_syms_early(Session *s);
void session_close(Session *s);

/* The tree's include edges (union graph; each file under its own
 * context; in exact mode, every edge the walk of every root took, which
 * session_record_exact_edge gave; self-includes left out) as CSR arrays
 * over file ids: the files
 * f includes are fwd[fwd_off[f] .. fwd_off[f + 1]), its includers
 * rev[rev_off[f] .. rev_off[f + 1]).  For fallout (check) and audiences
 * (split). */
typedef struct {
	int n;
	int *fwd_off, *fwd, *rev_off, *rev;
} IncludeEdges;
void session_include_edges(Session *s, IncludeEdges *e);
/* Exact mode: walks every root of the tree once (its context as
 * session_root_ctx gives it) and records the include edges; then
 * exact_met_from is set.  Nothing in union mode, or done already. */
void session_exact_walk(Session *s);
/* The context a root is read in: its own unit's or directory's, else
 * fallback (contexts from nctx on, made later, are not roots'). */
int session_root_ctx(Session *s, int f, int fallback, int nctx);
/* Exact mode: the walk of a root took these edges (its graph's). */
void session_record_exact_edges(Session *s, const TuGraph *g);
void include_edges_free(IncludeEdges *e);
/* Exit status for the run: 1 when the analysed code had errors. */
int session_status(void);

#endif
