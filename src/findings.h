/*
 * findings.h — check's findings as a user reads them: the compiler-style
 * line (path:line: kind: message) with its "note:" lines of evidence, and
 * the JSON object of `check --json`.  `check` prints them; `report` shows
 * them on each header's page.
 */
#ifndef HDRSLIM_FINDINGS_H
#define HDRSLIM_FINDINGS_H

#include <stdbool.h>

#include "check.h"

/* "path:line: kind: message" (no newline). */
void finding_headline(Session *s, Check *ck, const Finding *f, StrBuf *out);
/* The evidence, one "path:line: note: ..." line each, newline-terminated:
 * what it uses, the chain, the #if it sits under, the fallout (the first
 * max_fallout files, then a count). */
void finding_notes(Session *s, Check *ck, const Finding *f, int max_fallout, StrBuf *out);
/* One finding as a JSON object, after a separator unless it is first. */
void finding_json(StrBuf *sb, Session *s, Check *ck, const Finding *f, bool first);

#endif
