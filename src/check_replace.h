/*
 * check_replace.h — what replaces a removable #include line
 * (check_replace.c).
 */
#ifndef HDRSLIM_CHECK_REPLACE_H
#define HDRSLIM_CHECK_REPLACE_H

#include <stdbool.h>

#include "check_impl.h"

/* The header to include instead of line c for name id (used with
 * flags): of its providers that leave with the line, one that comes for
 * certain through it, then one outside any #if, then the best kind of
 * provide (a definition before a declaration); -1 when none. */
int leaving_home(Check *ck, Root *r, int id, int flags, int c, int file);
/* A project header that defines no struct, union or enum of its own: an
 * umbrella, whose replacement the headers it brings may rely on. */
bool umbrella_like(Check *ck, int target);
/* Adds to adds, before the others, the providers that the headers left
 * in the closure once line c (to target, an umbrella) is replaced relied
 * on the umbrella for.  False when one has none that could be included. */
bool add_header_needs(Check *ck, Root *r, int c, int file, int target, IntVec *adds);

#endif
