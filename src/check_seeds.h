/*
 * check_seeds.h — names a macro makes (check_seeds.c): the seeds that may
 * make a name no file provides in so many words.
 */
#ifndef HDRSLIM_CHECK_SEEDS_H
#define HDRSLIM_CHECK_SEEDS_H

#include <stddef.h>

#include "check_impl.h"

/* The seed "P##" of the longest P that starts name, -1 for none. */
int pasted_seed(const Check *ck, const char *name, size_t n);
/* The seed filter and the pasted starts' table (the Check fields
 * is_paste_seed, paste_lens, seed_bloom).  has_seeds: by name id, how many
 * files have the name as a seed. */
void index_pasted_seeds(Check *ck, const int *has_seeds);
/* Appends to out a count, then the names whose seeds could make name id:
 * its '_'-separated runs that some file has as a seed, and the seeds
 * "P##" of the starts P a macro pastes onto (out##bwl). */
void collect_seed_names(const Check *ck, int id, IntVec *out);

#endif
