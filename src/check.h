/*
 * check.h — include findings: for each file, which #include lines can go
 * (unused, replaceable, redundant), which symbols it gets only indirectly
 * (missing), and which includes a forward declaration could replace.
 *
 * The analysis joins two things: the include graph rooted at the file
 * (who would leave its closure if one direct include went: the include's
 * dominator subtree) and the symbol facts (which names the file uses and
 * which files in that closure provide them).  A use keeps an include
 * alive when every provider of the name in the closure would leave with
 * it.  Uses of a header that its own closure cannot satisfy (it relies on
 * its includers) count as uses of every file that includes it.
 */
#ifndef HDRSLIM_CHECK_H
#define HDRSLIM_CHECK_H

#include <stdbool.h>

#include "session.h"

enum FindingKind {
	FK_UNUSED,
	FK_REPLACEABLE,
	FK_REDUNDANT,
	FK_MISSING,
	FK_FORWARD,
	FK_NKINDS
};

typedef struct {
	int file;          /* a file that must include more */
	IntVec add;        /* file ids it must include */
	IntVec syms;       /* the symbols (name ids) it uses from them */
} Fallout;

typedef struct {
	int file;          /* the file the finding is about */
	unsigned line;     /* the #include's line; for missing, the first use */
	int dir;           /* directive index of the #include, -1 for missing */
	int kind;
	int target;        /* the included file; for missing, the symbol's home */
	int sym;           /* missing / forward: the symbol (name id) */
	IntVec syms;       /* evidence: symbols used from it (name ids) */
	IntVec via;        /* chain: file id, line, file id, line ... ending at target */
	IntVec add;        /* suggested direct includes (file ids) */
	char *condition;   /* the #if conditions around the include, or NULL */
	VEC(Fallout) fallout;
} Finding;

typedef VEC(Finding) FindingVec;

typedef struct Check Check;

/* kinds: bit set of (1 << FindingKind); strict: include-what-you-use. */
/* Opens the session for a check of the tree: every .c and .h of the tree
 * is a root of the graph (a header's fallout lands on its includers);
 * *files gets the named paths' ids, or every such file when none. */
void check_open_session(Session *s, Options *o, const char *tree, char **paths, int npaths,
			IntVec *files);
Check *check_new(Session *s, unsigned kinds, bool strict);
void check_free(Check *ck);
/* Reads a mapping file: one "<private.h> -> <public.h>" a line (or IWYU's
 * { include: ["<a.h>", "private", "<b.h>", "public"] } lines): where a
 * finding would suggest a.h, it suggests b.h.  Dies on a malformed line. */
void check_load_mapping(Check *ck, const char *path);
/* Finds everything about the given files (file ids), sorted by file and
 * line.  The session has been prepared for the tree. */
void check_run(Check *ck, const int *files, int n, FindingVec *out);
void findings_free(FindingVec *v);

/* For output. */
const char *check_kind_name(int kind);
/* A name id as written in code: "struct S" for a tag. */
void check_sym_text(const Check *ck, int sym, StrBuf *out);
/* "a, b, c and N more": at most max symbols, as written in code. */
void check_sym_list(const Check *ck, const IntVec *syms, int max, StrBuf *out);
/* Parses a --kinds list (unused,replaceable,... or forward) into a bit
 * set of (1 << FindingKind); dflt when s is NULL.  Dies on a bad name. */
unsigned check_parse_kinds(const char *s, unsigned dflt, const char *cmd);
/* How `from` should spell an #include of `target`: <x.h> or "x.h". */
char *check_spelling(Check *ck, int from, int target);
/* Makes check_spelling (and check_written, check_sym_text) safe to call
 * from many threads at once for the files of these findings. */
void check_spelling_prepare(Check *ck, const FindingVec *fv);
/* The #include as written at directive dir of file: <x.h> or "x.h". */
char *check_written(Check *ck, int file, int dir);

#endif
