/*
 * check_rules.h — the findings of one file (check_rules.c).
 */
#ifndef HDRSLIM_CHECK_RULES_H
#define HDRSLIM_CHECK_RULES_H

#include "check_impl.h"

/* Appends to out the findings about file, read through r (this
 * thread's root).  Needs the index, the pragmas and every header's
 * unresolved uses (check_needs) made. */
void check_file(Check *ck, Root *r, int file, FindingVec *out);

#endif
