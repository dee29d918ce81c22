/*
 * check_pragmas.h — what users wrote (check_pragmas.c): IWYU pragmas and
 * the mapping file, as the findings ask about them.
 */
#ifndef HDRSLIM_CHECK_PRAGMAS_H
#define HDRSLIM_CHECK_PRAGMAS_H

#include <stdbool.h>

#include "check_impl.h"

/* Whether sy has a pragma of this kind (PragmaKind) on line. */
bool has_pragma(const Symbols *sy, unsigned line, int kind);
/* An include line whose file's names count as the includer's own. */
bool exported_line(const Symbols *sy, unsigned line);
/* An include line no finding may remove. */
bool kept_line(const Symbols *sy, unsigned line);
/* The header to suggest to `from` instead of target: where a private
 * header or a mapping says users should go. */
int public_home(const Check *ck, int from, int target);
/* Whether file says never to include target (IWYU pragma: no_include). */
bool no_include(Check *ck, int file, int target);
/* Every file's public face (public_of) and whether any file exports an
 * include (any_export); builds the include edges (build_rev). */
void read_pragmas(Check *ck);

#endif
