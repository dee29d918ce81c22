/*
 * proofs.h — compiles that passed, kept between runs, so that verification
 * never asks the compiler the same question twice.
 *
 * A proof is one 64-bit key: the hash of a TU's compile command (the
 * words, the directory it runs in, the compiler binary's identity) and of
 * the compiler's own preprocessed output for that TU (`-E`, normalised:
 * line markers and blank lines dropped, system-header regions kept as
 * such).  Two runs with the same key hand the compiler proper the same
 * tokens under the same flags, so the second compile would end as the
 * first did.  Only passes are kept: a failure is always compiled again, so
 * that its first error is the compiler's.
 *
 * A split that leaves a back-include where the declarations were gives
 * most of its TUs the very token stream they had before: those pass on
 * their preprocessing alone.  The set is one file per tree beside the
 * facts cache, rewritten atomically; an unreadable or foreign file reads
 * as empty.
 */
#ifndef HDRSLIM_PROOFS_H
#define HDRSLIM_PROOFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Proofs Proofs;

/* The set kept for the tree at root_abs (empty when there is none). */
Proofs *proofs_open(const char *root_abs);
bool proofs_has(const Proofs *p, uint64_t key);
void proofs_add(Proofs *p, uint64_t key);
/* Writes the set if it grew (atomically; failures are silent: the set is
 * only a shortcut) and frees it. */
void proofs_close(Proofs *p);

/* The part of a key that comes from the command: argv (NULL-terminated),
 * the directory and the identity (path, size, mtime) of the compiler
 * each word naming an executable stands for. */
uint64_t proofs_command_key(char *const *argv, const char *cwd);

/* The hash of preprocessed output, fed as it arrives. */
typedef struct PpHash PpHash;
PpHash *pphash_new(uint64_t command_key);
void pphash_feed(PpHash *h, const char *bytes, size_t len);
/* The key (never 0); frees h. */
uint64_t pphash_end(PpHash *h);

#endif
