/*
 * memo.h — a command's whole result kept between runs, reused while none
 * of the inputs it was computed from has changed.
 *
 * The per-file cache makes lexing free on a second run, but the graph and
 * the per-TU dominator trees are still computed again.  When nothing
 * changed at all, a command can reuse its last result instead.  "Nothing
 * changed" is checked, never assumed: the kept result records
 *
 *   - the hdrslim binary itself (its bytes' hash),
 *   - the configuration: every search chain's directories, every
 *     context's signature (forced includes, prelude macros), every TU and
 *     the context each file of the tree is analysed under,
 *   - the tree's listing (every path the walk found, and its flags: a new
 *     header can change what an #include resolves to),
 *   - the content hash of every file the computation read, inside the tree
 *     or out (system headers, a build directory),
 *   - every path outside the listing that stat() found missing (a header
 *     installed since then could change a resolution).
 *
 * A result is kept only from a run that printed no diagnostic (a reused
 * result would not repeat them), and never with --no-cache.  A damaged,
 * truncated or foreign file reads as "no result".
 */
#ifndef HDRSLIM_MEMO_H
#define HDRSLIM_MEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

/* The result kept under `name` ("cost"), if every input it records is
 * unchanged: a malloc'd payload and its length.  Call after the session's
 * files are lexed (session_lex) and before anything that needs the graph.
 * May read (from the facts cache) files the last run read. */
bool memo_load(Session *s, const char *name, char **payload, size_t *len);
/* Keeps payload as the result under `name` with the inputs of this run,
 * written atomically; does nothing when the run printed a diagnostic or
 * the cache is off.  Failures are silent: the result is only a shortcut. */
void memo_save(Session *s, const char *name, const void *payload, size_t len);

#endif
