/*
 * check_fallout.h — what a header's finding breaks elsewhere
 * (check_fallout.c).
 */
#ifndef HDRSLIM_CHECK_FALLOUT_H
#define HDRSLIM_CHECK_FALLOUT_H

#include <stdbool.h>

#include "check_impl.h"

/* Every use of every file: for a name, the files that use it (user_off,
 * users). */
void build_users(Check *ck);
/* The X-macro tables and the files that read them inside braces
 * (nested_off, nested): see check_fallout.c. */
void index_nested(Check *ck);
/* Whether file z is an X-macro table: it takes no #include. */
bool is_table(const Check *ck, int z);
/* fd's fallout when root line c goes and the files `leaving` leave the
 * closure of fd's file: the files that rely on what leaves (none of them
 * an X-macro table).  False when the finding cannot be made. */
bool compute_fallout(Check *ck, Root *r, Finding *fd, const IntVec *leaving, int c);

#endif
