/*
 * intern.h — string interning.  Every path and every macro name a run
 * touches is stored once and named by a dense integer id from then on, so
 * hot paths compare and index ints, never strings.
 *
 * Not thread-safe: interning happens on the main thread; worker threads
 * only read ids that already exist (intern_str is safe to call
 * concurrently as long as nobody interns at the same time).
 */
#ifndef HDRSLIM_INTERN_H
#define HDRSLIM_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct Interner Interner;

Interner *interner_new(void);
void interner_free(Interner *in);
/* id of s[0..n), adding it if new; ids start at 0 and are dense. */
int intern(Interner *in, const char *s, size_t n);
int intern_cstr(Interner *in, const char *s);
/* id of s[0..n) if present, else -1. */
int intern_find(const Interner *in, const char *s, size_t n);
/* The same with the hash given (intern_hash of the bytes). */
uint32_t intern_hash(const char *s, size_t n);
int intern_hashed(Interner *in, const char *s, size_t n, uint32_t hash);
/* The same, keeping s itself instead of a copy: s[n] must be 0 and s must
 * outlive the interner (names inside symbol facts, which live as long as
 * the session).  Saves copying millions of names. */
int intern_hashed_borrowed(Interner *in, const char *s, size_t n, uint32_t hash);
int intern_find_hashed(const Interner *in, const char *s, size_t n, uint32_t hash);
/* Room for `more` new strings without growing; a hint to start loading
 * the slot a string of this hash probes first. */
void intern_reserve(Interner *in, int more);
void intern_prefetch(const Interner *in, uint32_t hash);
const char *intern_str(const Interner *in, int id);
int intern_len(const Interner *in, int id);
int intern_count(const Interner *in);
size_t interner_bytes(const Interner *in);

#endif
