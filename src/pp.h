/*
 * pp.h — exact mode: a directive-level preprocessor.
 *
 * It walks one TU's includes in order, with the macro table that the
 * prelude (predefined macros, -D/-U) and every #define/#undef on the way
 * build, evaluating #if and computed includes as GCC would.  Ordinary
 * tokens are never expanded.  The result is the TU's graph, whose node
 * list is the set `gcc -M` prints.
 */
#ifndef HDRSLIM_PP_H
#define HDRSLIM_PP_H

#include <stdbool.h>

#include "config.h"
#include "incpath.h"
#include "tu.h"

typedef struct Pp Pp;

Pp *pp_new(Config *cfg, IncPath *ip, Interner *names);
void pp_free(Pp *pp);
/* -MG: a missing header is listed, not an error. */
void pp_set_missing_ok(Pp *pp, bool ok);
void pp_walk(Pp *pp, const Unit *u, TuGraph *g);
/* The same as if the TU's own #include at directive index dir were not
 * there (what removing it would leave). */
void pp_walk_without(Pp *pp, const Unit *u, TuGraph *g, int dir);

#endif
