/*
 * check_providers.h — who provides a name in one root's closure
 * (check_providers.c).  Each answer is a count, with the nodes in
 * r->prov_nodes (and, for all_providers and need_providers, r->prov_cert:
 * provided outside every #if of unknown value); -1 when the root
 * provides the name itself.
 */
#ifndef HDRSLIM_CHECK_PROVIDERS_H
#define HDRSLIM_CHECK_PROVIDERS_H

#include "check_impl.h"

/* Nodes of the closure (not the root) that provide the name for this
 * use, best kind first. */
int providers(Check *ck, Root *r, int id, int flags);
/* Every node (not the root) whose provide satisfies the use; with a line
 * (a use in the root's own code), the root's own provides below it do
 * not count. */
int all_providers(Check *ck, Root *r, int id, int flags, unsigned line);
/* all_providers for a closure use, from its need's copied-out list:
 * the same answer, without touching the name-indexed tables. */
int need_providers(Check *ck, Root *r, int need);
/* The closure nodes that have sid as a seed (*n of them). */
const int *seed_nodes(Check *ck, Root *r, int sid, int *n);
/* The closure nodes with a seed that may make name id (no file
 * provides it): their count, in r->prov_nodes. */
int seed_providers(Check *ck, Root *r, int id);
/* The same for a closure use, whose seed names were found once for all. */
int need_seed_providers(Check *ck, Root *r, int need);
/* Frees the memoized seed names (ck->seed_lists). */
void seed_lists_free(Check *ck);

#endif
