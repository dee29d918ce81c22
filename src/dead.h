/*
 * dead.h — what a header declares for nobody: declarations no file of the
 * tree uses, forward declarations that declare nothing new, and wrappers
 * that only forward to another function or to a member of their
 * parameter (the kind of text the 2017 <linux/sched.h> cleanup removed by
 * hand), and the rewrite that puts a wrapper's body at its call sites.
 *
 * Everything is name-based and errs on the side of keeping: a name counts
 * as used when any file of the tree (C sources and headers, and the
 * assembly, linker script, syscall table, device tree and Rust files that
 * name C symbols) mentions it outside its own declarations, when a
 * file-scope macro call could make it by pasting (a seed), or when it
 * begins or ends with a fragment that some macro pastes with `##`.
 */
#ifndef HDRSLIM_DEAD_H
#define HDRSLIM_DEAD_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

enum DeadKind {
	DK_DEAD,     /* a declaration nothing uses */
	DK_FORWARD,  /* a needless `struct S;` */
	DK_WRAPPER,  /* a pointless wrapper */
	DK_NKINDS
};

enum WrapForm {
	WF_CALL,     /* OTHER(its own parameters, in order) */
	WF_MEMBER,   /* p->member */
	WF_ADDR,     /* &p->member */
};

typedef struct {
	int file;
	unsigned line;
} DeadSite;

typedef struct {
	int kind;
	int file;            /* the header */
	unsigned line;
	char *name;
	char *what;          /* "macro", "prototype", "struct", "enum constant" ... */
	char *condition;     /* the #if it sits under, or NULL */
	char *reason;        /* forward: why it is needless; dead: a note, or NULL */
	/* wrappers */
	bool is_macro;
	StrVec params;
	int form;
	char *callee;        /* WF_CALL */
	int param;           /* WF_MEMBER / WF_ADDR: index of the parameter */
	char *member;        /* "cpus_allowed", or "a.b" */
	char *expr;          /* the body in words: "&tsk->cpus_allowed" */
	int first, last;     /* the definition's lines, with the comment above;
			      * 0 when it cannot be cut out cleanly */
	VEC(DeadSite) calls; /* sorted by file, line */
	int call_files;
	int other_uses;      /* mentions that are not calls (cannot be rewritten) */
} DeadItem;

typedef VEC(DeadItem) DeadVec;

/* Finds the items of the kinds in `kinds` (bit set of 1 << DeadKind) in
 * the given headers (file ids), sorted by kind, file and line.  The
 * session is open on the tree (session_open with the walk). */
void dead_run(Session *s, const int *headers, int nheaders, unsigned kinds, DeadVec *out);
void dead_free(DeadVec *v);
const char *dead_kind_name(int kind);

/* text[0..len) with every call of wrapper w rewritten to its body; with
 * drop_def, lines w->first..w->last (and a blank line that would double)
 * go too.  *ncalls gets the calls rewritten.  Returns a malloc'd,
 * NUL-terminated text (length in *outlen). */
char *dead_rewrite(const DeadItem *w, const char *text, size_t len, bool drop_def, int *ncalls,
		   size_t *outlen);
/* Counts the calls of w in text (what dead_rewrite would change). */
int dead_count_calls(const DeadItem *w, const char *text, size_t len);
/* A Coccinelle semantic patch that rewrites every call of w. */
void dead_cocci(const DeadItem *w, StrBuf *out);

#endif
