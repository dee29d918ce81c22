/*
 * carve.h — cutting declarations out of a header's text: which lines make
 * up the declaration of a name (from its leading comment to its closing
 * `;`, `}` or last macro line), grown to whole #if groups, so that a
 * split or move takes exactly the text a person would cut.
 */
#ifndef HDRSLIM_CARVE_H
#define HDRSLIM_CARVE_H

#include <stdbool.h>

#include "decl.h"
#include "edit.h"

typedef struct {
	int first, last;   /* line numbers, inclusive */
} Span;
typedef VEC(Span) SpanVec;

/* The spans of every declaration of `names` (n of them) in the file e,
 * whose symbol facts are sy.  Merged where only blank lines part them,
 * and grown to a whole #if ... #endif group whose every declaration is
 * moved.  False with *err (naming the file, the line and the name) when a
 * name is not declared there, or sits in an #if group beside
 * declarations that stay. */
bool carve_spans(const EditFile *e, const Symbols *sy, char **names, int n, SpanVec *out, char **err);
/* The file cut into its top-level units, in order: each declaration (to
 * its `;` or function body), each #define, each whole #if group (the
 * include guard excepted), each grown up over its leading comment. */
void carve_units(const EditFile *e, SpanVec *out);
/* The unit is an #include line (with its comment). */
bool carve_is_include(const EditFile *e, const Span *s);
/* Line n of e is inside one of the spans. */
bool span_has(const SpanVec *v, int n);
/* The guard macro for a new header at rel: include/linux/sched/debug.h
 * -> _LINUX_SCHED_DEBUG_H. malloc'd. */
char *guard_name_for(const char *rel);

#endif
