/*
 * check_needs.h — what a header leaves to its includers (check_needs.c).
 */
#ifndef HDRSLIM_CHECK_NEEDS_H
#define HDRSLIM_CHECK_NEEDS_H

#include <stdbool.h>

#include "check_impl.h"

/* A header, or a .c file some other file includes: what it leaves
 * unresolved is its includers' to provide, and its findings have
 * fallout. */
bool is_included(Check *ck, int file);
/* ck->unresolved[file]: the uses file's own closure (loaded in r, no
 * labels) cannot satisfy, as name id << 1 | complete type. */
void compute_unresolved(Check *ck, Root *r, int file);
/* The inverse of the unresolved lists: for a name, the headers that rely
 * on their includers for it (need_off, need). */
void build_needers(Check *ck);
/* The compact form of the unresolved lists (the Check fields from nneeds
 * to fneed), once every header's are known. */
void index_needs(Check *ck);

#endif
