/*
 * check_missing.h — the missing includes that fallout implies
 * (check_missing.c).
 */
#ifndef HDRSLIM_CHECK_MISSING_H
#define HDRSLIM_CHECK_MISSING_H

#include "check_impl.h"

/* Appends to out the missing findings of the checked files (files, n of
 * them) that out's findings' fallout implies: one per file and header,
 * at the first use.  out is sorted. */
void missing_from_fallout(Check *ck, const int *files, int n, FindingVec *out);

#endif
