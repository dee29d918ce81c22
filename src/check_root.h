/*
 * check_root.h — one root's closure and its labels (check_root.c).
 */
#ifndef HDRSLIM_CHECK_ROOT_H
#define HDRSLIM_CHECK_ROOT_H

#include <stdbool.h>

#include "check_impl.h"

/* Reads file's closure into r: its graph, the bit set of its files, what
 * it provides itself and its exported includes.  labels: the
 * dominator-like labels (lab1 ... cert2), which finding the file's own
 * removable includes needs and its unresolved uses do not. */
void load_root(Check *ck, Root *r, int file, bool labels);
void root_free(Root *r);
/* The chain from the root through its include line `start` (a root edge
 * index) to node, as (file, line of the #include) pairs. */
void chain_to(Check *ck, Root *r, int start, int node, IntVec *via);

#endif
