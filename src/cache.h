/*
 * cache.h — per-file facts kept between runs, keyed by content hash.
 *
 * Like git's index, an entry also remembers the file's size, mtime, ctime
 * and inode, so an unchanged file is recognised by stat() alone and never
 * read.  A changed stat with the same content hash still reuses the facts.
 * The cache is one file per tree under $XDG_CACHE_HOME/hdrslim (or
 * ~/.cache/hdrslim), mapped at start; a few changed entries are appended
 * to a journal beside it, more get the file replaced atomically (write to
 * a temporary file, rename).
 * A cache that is unreadable, truncated or from another version is
 * ignored, never trusted.
 */
#ifndef HDRSLIM_CACHE_H
#define HDRSLIM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "facts.h"

typedef struct Cache Cache;

typedef enum { CACHE_FACTS, CACHE_SYMBOLS } CacheKind;

/* Opens (and loads) the cache for the tree at root_abs.  Never fails:
 * returns an empty cache when there is none. */
Cache *cache_open(const char *root_abs);
/* The same for another kind of block: CACHE_SYMBOLS holds Symbols (decl.h)
 * by content hash, in a file of its own. */
Cache *cache_open_kind(const char *root_abs, CacheKind kind);
const char *cache_path(const Cache *c);

/* Facts for the file at key when its stat matches; sets *hash. */
/* A file's stat as the cache compares it: like git's index, ctime too, so
 * content changed under a restored mtime (touch -r) is still seen. */
typedef struct {
	uint64_t size, mtime_ns, ctime_ns, ino;
} FileStat;
bool file_stat_same(const FileStat *a, const FileStat *b);

const Facts *cache_by_stat(const Cache *c, const char *key, const FileStat *st, uint64_t *hash);
/* The flags of that entry, from its head alone (the block is neither read
 * nor verified); false when there is none.  Unknown flags read as all set. */
enum { CACHE_NAMES_CODE = 1 };
bool cache_flags_by_stat(const Cache *c, const char *key, const FileStat *st, uint32_t *flags);
/* No entry was loaded: nothing can be found by stat or by hash. */
bool cache_is_empty(const Cache *c);
/* Facts of a file with this content hash, if any file had it. */
const Facts *cache_by_hash(const Cache *c, uint64_t hash);

/* Records the facts of a file for the next run (thread-safe). */
void cache_put(Cache *c, const char *key, const FileStat *st, uint64_t hash, const Facts *f);
/* The same for any kind of cache; a block starts with its u32 size, a
 * multiple of 8. */
const void *cache_block_by_hash(const Cache *c, uint64_t hash);
void cache_put_block(Cache *c, const char *key, const FileStat *st, uint64_t hash, const void *block);
/* Room for a block of size bytes (a multiple of 8) that will be put
 * under key, made where the next cache file is laid out (see cache.c),
 * so that saving does not copy it; it lives as long as the cache.  NULL
 * when there is no room there (then the caller allocates the block).
 * Every block got this way must be put, by the thread that got it. */
void *cache_reserve_block(Cache *c, const char *key, size_t size);
/* How many blocks the cache file was saved with where they were made. */
int cache_saved_in_place(const Cache *c);
/* Writes the cache if anything changed.  keep_unused: also keep the
 * entries this run did not look at (it saw only part of the tree); else
 * they are dropped (the run listed the whole tree, so they are gone).
 * A second call in one run appends what came since the first to the
 * journal.  Errors are warnings. */
void cache_save(Cache *c, bool keep_unused);
/* The same in two steps, so that the writing can go on a thread of its
 * own while others still put entries: begin takes what is there now
 * (NULL when there is nothing to write later), finish writes it. */
typedef struct CacheSave CacheSave;
CacheSave *cache_save_begin(Cache *c, bool keep_unused);
void cache_save_finish(CacheSave *sv);
/* Gives the mapped file's resident pages back to the kernel; they are
 * mapped again from the page cache when touched.  For a run that has read
 * every entry once and will read only a few again. */
void cache_drop_resident(Cache *c);
void cache_free(Cache *c);
/* Where a command keeps its whole result for the tree at root_abs
 * (memo.h), beside the facts cache; malloc'd, NULL without a cache dir. */
char *cache_result_path(const char *root_abs, const char *name);
/* Creates the cache directory (and its parent) if missing. */
void cache_make_dir(void);
/* Deletes every cache file of the tree at root_abs (facts and symbols of
 * any version, journals, kept results); 0 when it removed any. */
int cache_clear(const char *root_abs);

#endif
