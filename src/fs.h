/*
 * fs.h — the file table: every file a run knows about, named by an
 * interned path key and a dense file id.
 *
 * A key is the lexically normalised path, relative to the tree root when
 * the file is inside the tree and absolute otherwise; it is also what the
 * user sees.  The tree is listed once (fs_walk); files outside it (system
 * headers, a build directory) are found by stat() on demand, with misses
 * remembered.  Facts are filled in by fs_lex_all / fs_facts, in parallel,
 * from the cache when a file's size, mtime, ctime and inode are unchanged.
 */
#ifndef HDRSLIM_FS_H
#define HDRSLIM_FS_H

#include <stdbool.h>
#include <stdint.h>

#include "decl.h"
#include "facts.h"
#include "intern.h"

enum FileFlags {
	F_IN_TREE = 1,   /* listed by the tree walk */
	F_EXCLUDED = 2,  /* under a directory kept out of the file set */
	F_READ_ERROR = 4,
	F_REPORTED = 8,  /* its lexing errors have been reported */
	F_DIR = 16,      /* a directory (kept for existence checks) */
};

typedef struct {
	int key;         /* interned path key */
	int dir;         /* key of its directory */
	uint8_t flags;
	bool stat_ok;
	uint64_t size, mtime_ns, ctime_ns, ino;
	uint64_t hash;
	Facts *facts;    /* NULL until lexed */
	bool facts_owned;
	Symbols *syms;   /* NULL until fs_symbols_all */
	bool syms_mapped; /* syms lives in the symbols cache's mapping */
} File;

typedef struct Cache Cache;

typedef struct {
	Interner *keys;
	File *files;
	int nfiles, cap;
	int *file_of_key;   /* key -> file id, -1 none, -2 known missing */
	int cap_keys;
	char *root;         /* absolute tree root */
	size_t root_len;
	int root_fd;        /* open on root, for *at() calls; -1 if it failed */
	/* keys that stat() found missing (not the listing): what a kept
	 * result depends on besides the files it read (memo.c) */
	IntVec stat_misses;
	/* directories the walk saw but did not enter (.git, symlinked or
	 * too deep): the only places inside the tree the listing does not
	 * speak for */
	IntVec walk_skipped;
	bool walked;
	Cache *cache;
	Cache *syms_cache;  /* opened by fs_symbols_all when cache is */
	int syms_cache_hits;
	/* stats */
	int lexed, cache_hits;
	uint64_t bytes_read;
} FileTable;

void fs_init(FileTable *ft, const char *root_abs);
void fs_free(FileTable *ft);

/* The key of a path given relative to cwd-independent absolute form or
 * relative to the tree root.  `abs_or_rel` absolute: converted to a
 * tree-relative key when inside the tree. */
int fs_key(FileTable *ft, const char *path);
/* Key of dir/name, normalised. dir is a key (or -1 for none). */
int fs_key_join(FileTable *ft, int dir_key, const char *name);
const char *fs_keystr(const FileTable *ft, int key);
/* An absolute path for a key (malloc'd). */
char *fs_abspath(const FileTable *ft, int key);

/* Whether the file is in the tree's file set: a .c or .h file the walk
 * listed, outside the directories kept out of it. */
bool fs_in_file_set(const FileTable *ft, int id);

/* File id for key if the file exists (stat on demand), else -1. */
int fs_probe(FileTable *ft, int key);
/* File id for key, whether or not it exists (for named inputs). */
int fs_add(FileTable *ft, int key, uint8_t flags);

/* Lists the tree: every regular file under root, except .git and the like;
 * files under any of `exclude` (tree-relative dirs) get F_EXCLUDED.
 * Symlinked directories are not followed (no loops). */
void fs_walk(FileTable *ft, const char *const *exclude);

/* Makes sure the file's facts are present (reading and lexing it).
 * Returns NULL when it cannot be read (reported once). */
Facts *fs_facts(FileTable *ft, int file);
/* Lexes the given files in parallel on `threads` threads. */
void fs_lex_all(FileTable *ft, const int *files, int n, int threads);
/* Whether the file may #include a .c file (Facts.names_code), from its
 * facts or else from the cache's summary without reading them; true when
 * not known.  Thread-safe for distinct files. */
bool fs_may_name_code(FileTable *ft, int id);

/* Reads the given files' symbol facts (File.syms), in parallel; their
 * directive facts are loaded too.  A file that cannot be read keeps
 * syms NULL. */
void fs_symbols_all(FileTable *ft, const int *files, int n, int threads);

/* The same for copies of File entries whose directive facts are read
 * (files[i].syms and .syms_mapped are set; keys[i] is files[i]'s path
 * key): it reads nothing of the file table's arrays, so another thread
 * may add files to the table meanwhile (the graph does).  The caller
 * copies the results back.  done (or NULL): done[i] is set (release)
 * once files[i] is, for a reader that follows the workers. */
void fs_symbols_detached(FileTable *ft, File *files, const char *const *keys, int n, int threads,
			 uint8_t *done);

/* The file's bytes, malloc'd and NUL-terminated, or NULL.  Thread-safe. */
char *fs_read(FileTable *ft, int file, size_t *len);

/* Reports each file's lexing errors once, as diagnostics. */
void fs_report_errors(FileTable *ft, int file);

#endif
