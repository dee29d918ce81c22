/*
 * macro.h — the macro table and the two places hdrslim expands macros:
 * #if/#elif expressions and computed #include lines.  Ordinary code is
 * never expanded.
 *
 * The table is three-valued: a name is defined, undefined, or unknown.
 * Exact mode starts from the compiler's predefined macros and the command
 * line, so every name it has not seen is undefined.  Union mode (no
 * configuration) makes every name unknown unless the command line said
 * otherwise, and an #if over unknown names keeps both branches.
 */
#ifndef HDRSLIM_MACRO_H
#define HDRSLIM_MACRO_H

#include <stdbool.h>
#include <stdint.h>

#include "facts.h"
#include "intern.h"
#include "util.h"

typedef enum { TRI_FALSE = 0, TRI_TRUE = 1, TRI_UNKNOWN = 2 } Tri;

typedef struct Macro Macro;

typedef struct MacroTable {
	Interner *names;    /* identifiers; shared by every table of a run */
	Macro **by_id;      /* indexed by identifier id */
	int cap;
	VEC(int) touched;   /* ids with an entry, for mt_reset */
	Arena arena;
	bool unknown_default; /* union mode */
	/* __has_include support: returns 1 found, 0 not found */
	int (*has_include)(void *ctx, const char *name, bool angled, bool next);
	void *has_include_ctx;
	/* what __LINE__, __FILE__, __INCLUDE_LEVEL__ and __COUNTER__ say */
	long line, include_level, counter;
	const char *file;
	/* expansion work (tokens) left until the next mt_reset: one #if may
	 * use a million, but a file or TU full of heavy ones must not take
	 * minutes either */
	long work_left;
} MacroTable;

void mt_init(MacroTable *mt, Interner *names, bool unknown_default);
void mt_reset(MacroTable *mt);
void mt_free(MacroTable *mt);

/* Applies a #define / #undef directive of file facts f. */
void mt_define(MacroTable *mt, const Facts *f, const Directive *d);
void mt_undef(MacroTable *mt, const char *name, size_t len);
/* Applies every #define/#undef of f in order, ignoring conditionals: for
 * a prelude (predefined macros, -D/-U), which has none. */
void mt_apply(MacroTable *mt, const Facts *f);
/* Marks a name unknown (union mode: an #undef under an unknown condition). */
void mt_forget(MacroTable *mt, const char *name, size_t len);
/* Union mode: a #define under an unknown condition.  The name stays
 * unknown to #if, but a computed #include may use the definition. */
void mt_define_maybe(MacroTable *mt, const Facts *f, const Directive *d);

/* TRI_TRUE defined, TRI_FALSE undefined, TRI_UNKNOWN unknown. */
Tri mt_defined(MacroTable *mt, const char *name, size_t len);

/* Evaluates an #if expression.  *err is set to a message (static string)
 * when the expression is malformed; the result is then TRI_UNKNOWN. */
Tri mt_eval_if(MacroTable *mt, const char *text, size_t len, const char **err);

/* Expands a computed #include's tokens.  Returns the header name in a
 * malloc'd string and sets *angled, or NULL when the expansion is not a
 * header name (or depends on unknown macros). */
char *mt_expand_include(MacroTable *mt, const char *text, size_t len, bool *angled);

#endif
