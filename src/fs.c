/*
 * fs.c — listing the tree, finding files, reading and lexing them.
 *
 * Files are read with read() into one reusable buffer per thread rather
 * than mmap()ed: most sources are a few KiB, and a read is one copy from
 * the page cache with no mapping to set up and tear down per file.
 * Lexing runs on all cores; each worker takes the next file id from an
 * atomic counter, so there is nothing to balance by hand.
 */
#include "fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "lex.h"
#include "progress.h"

void fs_init(FileTable *ft, const char *root_abs)
{
	memset(ft, 0, sizeof(*ft));
	ft->keys = interner_new();
	ft->root = xstrdup(root_abs);
	path_normalize(ft->root);
	ft->root_len = strlen(ft->root);
	ft->root_fd = open(ft->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

void fs_free(FileTable *ft)
{
	for (int i = 0; i < ft->nfiles; i++)
		if (ft->files[i].facts_owned)
			free(ft->files[i].facts);
	for (int i = 0; i < ft->nfiles; i++)
		if (!ft->files[i].syms_mapped)
			free(ft->files[i].syms);
	free(ft->files);
	vec_free(&ft->stat_misses);
	vec_free(&ft->walk_skipped);
	free(ft->file_of_key);
	free(ft->root);
	if (ft->root_fd >= 0)
		close(ft->root_fd);
	interner_free(ft->keys);
	if (ft->cache)
		cache_free(ft->cache);
	if (ft->syms_cache)
		cache_free(ft->syms_cache);
}

static int *key_slot(FileTable *ft, int key)
{
	if (key >= ft->cap_keys) {
		int cap = ft->cap_keys ? ft->cap_keys : 4096;
		while (cap <= key)
			cap *= 2;
		ft->file_of_key = xrealloc(ft->file_of_key, (size_t)cap * sizeof(int));
		for (int i = ft->cap_keys; i < cap; i++)
			ft->file_of_key[i] = -1;
		ft->cap_keys = cap;
	}
	return &ft->file_of_key[key];
}

/* Interns an already normalised path, making it tree-relative if inside. */
static int key_of_normalized(FileTable *ft, const char *p)
{
	if (p[0] == '/' && path_has_prefix(p, ft->root)) {
		const char *rel = p + ft->root_len;
		if (ft->root_len == 1)
			rel = p; /* root "/" */
		while (*rel == '/')
			rel++;
		return intern_cstr(ft->keys, *rel ? rel : ".");
	}
	if (p[0] != '/' && p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2])) {
		char *abs = path_join(ft->root, p);
		int k = key_of_normalized(ft, abs);
		free(abs);
		return k;
	}
	return intern_cstr(ft->keys, p);
}

int fs_key(FileTable *ft, const char *path)
{
	char *p = xstrdup(path);
	path_normalize(p);
	int k = key_of_normalized(ft, p);
	free(p);
	return k;
}

int fs_key_join(FileTable *ft, int dir_key, const char *name)
{
	if (name[0] == '/' || dir_key < 0)
		return fs_key(ft, name);
	char *p = path_join(intern_str(ft->keys, dir_key), name);
	int k = key_of_normalized(ft, p);
	free(p);
	return k;
}

const char *fs_keystr(const FileTable *ft, int key)
{
	return intern_str(ft->keys, key);
}

char *fs_abspath(const FileTable *ft, int key)
{
	const char *k = intern_str(ft->keys, key);
	if (k[0] == '/')
		return xstrdup(k);
	return path_join(ft->root, k);
}

static int add_file(FileTable *ft, int key, int dir_key, uint8_t flags);

int fs_add(FileTable *ft, int key, uint8_t flags)
{
	return add_file(ft, key, -1, flags);
}

/* dir_key -1: worked out from the key */
static int add_file(FileTable *ft, int key, int dir_key, uint8_t flags)
{
	int *slot = key_slot(ft, key);
	if (*slot >= 0) {
		ft->files[*slot].flags |= flags;
		return *slot;
	}
	if (ft->nfiles == ft->cap) {
		ft->cap = ft->cap ? ft->cap * 2 : 4096;
		ft->files = xrealloc(ft->files, (size_t)ft->cap * sizeof(File));
	}
	int id = ft->nfiles++;
	File *f = &ft->files[id];
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->flags = flags;
	if (dir_key >= 0) {
		f->dir = dir_key;
	} else {
		char *d = path_dirname(intern_str(ft->keys, key));
		f->dir = intern_cstr(ft->keys, d);
		free(d);
	}
	slot = key_slot(ft, key); /* interning may have grown nothing here, but be safe */
	*slot = id;
	return id;
}

/* Directories the walk listed completely: a miss under them is final. */
static uint8_t *walked;
static int cap_walked;

static void mark_walked(int key)
{
	if (key >= cap_walked) {
		int cap = cap_walked ? cap_walked : 4096;
		while (cap <= key)
			cap *= 2;
		walked = xrealloc(walked, (size_t)cap);
		memset(walked + cap_walked, 0, (size_t)(cap - cap_walked));
		cap_walked = cap;
	}
	walked[key] = 1;
}

bool fs_in_file_set(const FileTable *ft, int id)
{
	const File *f = &ft->files[id];
	if (!(f->flags & F_IN_TREE) || (f->flags & (F_EXCLUDED | F_DIR)))
		return false;
	const char *k = intern_str(ft->keys, f->key);
	return ends_with(k, ".c") || ends_with(k, ".h");
}

/* Whether a tree-relative path lies under a directory the walk skipped.
 * Elsewhere in a walked tree a path missing now can only appear by
 * changing the listing. */
static bool under_walk_skipped(const FileTable *ft, const char *k)
{
	for (int i = 0; i < ft->walk_skipped.n; i++)
		if (path_has_prefix(k, intern_str(ft->keys, ft->walk_skipped.v[i])))
			return true;
	return false;
}

int fs_probe(FileTable *ft, int key)
{
	int *slot = key_slot(ft, key);
	if (*slot >= 0)
		return ft->files[*slot].flags & F_DIR ? -1 : *slot;
	if (*slot == -2)
		return -1;
	const char *k = intern_str(ft->keys, key);
	if (k[0] != '/') {
		const char *slash = strrchr(k, '/');
		int dk = slash ? intern_find(ft->keys, k, (size_t)(slash - k)) : intern_find(ft->keys, ".", 1);
		/* in a listed directory, or in one that does not exist: the
		 * walk enters every directory but the ones it skipped */
		if ((dk >= 0 && dk < cap_walked && walked[dk]) ||
		    (ft->walked && !under_walk_skipped(ft, k))) {
			*key_slot(ft, key) = -2;
			return -1;
		}
	}
	char *abs = fs_abspath(ft, key);
	struct stat st;
	int r = stat(abs, &st);
	free(abs);
	if (r < 0 || !S_ISREG(st.st_mode)) {
		*key_slot(ft, key) = -2;
		vec_push(&ft->stat_misses, key); /* the listing does not speak for it */
		return -1;
	}
	return fs_add(ft, key, 0);
}

/* ---- the walk ---- */

static bool excluded_dir(const char *rel, const char *const *exclude)
{
	for (int i = 0; exclude && exclude[i]; i++)
		if (path_has_prefix(rel, exclude[i]))
			return true;
	return false;
}

static void walk_dir(FileTable *ft, int dirfd, const char *rel, bool excluded,
		     const char *const *exclude, int depth)
{
	DIR *d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		warn_at(rel, 0, "cannot list directory: %s", strerror(errno));
		return;
	}
	int dir_key = intern_cstr(ft->keys, rel);
	mark_walked(dir_key);
	struct dirent *e;
	StrBuf path = {0};
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
			continue;
		path.len = 0;
		if (strcmp(rel, "."))
			sb_adds(&path, rel), sb_addc(&path, '/');
		sb_adds(&path, n);
		if (!strcmp(n, ".git") || !strcmp(n, ".hg") || !strcmp(n, ".svn")) {
			vec_push(&ft->walk_skipped, intern(ft->keys, path.buf, path.len));
			continue;
		}
		int type = e->d_type;
		if (type == DT_UNKNOWN || type == DT_LNK) {
			struct stat st;
			if (fstatat(dirfd, n, &st, 0) < 0)
				continue; /* dangling link, or a loop: ELOOP */
			if (type == DT_LNK && S_ISDIR(st.st_mode)) {
				/* symlinked directories are not followed */
				vec_push(&ft->walk_skipped, intern(ft->keys, path.buf, path.len));
				continue;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type == DT_DIR) {
			int fd = depth > 64 ? -1 : openat(dirfd, n, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
			if (fd < 0) {
				vec_push(&ft->walk_skipped, intern(ft->keys, path.buf, path.len));
				continue;
			}
			char *sub = xstrdup(sb_str(&path));
			bool ex = excluded || excluded_dir(sub, exclude);
			walk_dir(ft, fd, sub, ex, exclude, depth + 1);
			free(sub);
		} else if (type == DT_REG) {
			int key = intern(ft->keys, path.buf, path.len);
			add_file(ft, key, dir_key, F_IN_TREE | (excluded ? F_EXCLUDED : 0));
		}
	}
	free(path.buf);
	closedir(d);
}

void fs_walk(FileTable *ft, const char *const *exclude)
{
	int fd = open(ft->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die("%s: cannot open directory: %s", ft->root, strerror(errno));
	walk_dir(ft, fd, ".", false, exclude, 0);
	ft->walked = true;
}

/* ---- reading and lexing ---- */

typedef struct {
	char *buf;
	size_t cap;
	LexScratch scratch;
	DeclScratch *decl;
} Worker;

/* Where to open a path key from: tree-relative keys relative to the
 * root's fd (no path to build); else *abs, the absolute path (malloc'd,
 * the caller frees it; NULL when the key itself serves). */
static int at_dir(const FileTable *ft, const char *key, char **abs)
{
	int dirfd = key[0] == '/' || ft->root_fd < 0 ? AT_FDCWD : ft->root_fd;
	*abs = dirfd == AT_FDCWD && key[0] != '/' ? path_join(ft->root, key) : NULL;
	return dirfd;
}

/* f's stat as the caches compare it. */
static FileStat file_stat(const File *f)
{
	return (FileStat){f->size, f->mtime_ns, f->ctime_ns, f->ino};
}

static void set_stat(File *f, const struct stat *st)
{
	f->size = (uint64_t)st->st_size;
	f->mtime_ns = (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec;
	f->ctime_ns = (uint64_t)st->st_ctim.tv_sec * 1000000000ull + (uint64_t)st->st_ctim.tv_nsec;
	f->ino = (uint64_t)st->st_ino;
	f->stat_ok = true;
}

/* Stats a regular file into f; *dirfd and *abs as at_dir gives them.
 * False, with F_READ_ERROR set, when it is not a readable regular file. */
static bool stat_file(FileTable *ft, File *f, int *dirfd, char **abs)
{
	const char *key = intern_str(ft->keys, f->key);
	*dirfd = at_dir(ft, key, abs);
	struct stat st;
	if (fstatat(*dirfd, *abs ? *abs : key, &st, 0) < 0 || !S_ISREG(st.st_mode)) {
		free(*abs);
		*abs = NULL;
		f->flags |= F_READ_ERROR;
		return false;
	}
	set_stat(f, &st);
	return true;
}

bool fs_may_name_code(FileTable *ft, int id)
{
	File *f = &ft->files[id];
	if (f->facts)
		return f->facts->names_code;
	if (f->flags & F_READ_ERROR)
		return false; /* nothing to include from */
	int dirfd;
	char *abs;
	if (!ft->cache || !stat_file(ft, f, &dirfd, &abs))
		return !(f->flags & F_READ_ERROR);
	free(abs);
	FileStat fst = file_stat(f);
	uint32_t flags;
	return !cache_flags_by_stat(ft->cache, intern_str(ft->keys, f->key), &fst, &flags) ||
	       (flags & CACHE_NAMES_CODE);
}

static void load_file(FileTable *ft, int id, Worker *w)
{
	File *f = &ft->files[id];
	if (f->facts || (f->flags & F_READ_ERROR))
		return;
	const char *key = intern_str(ft->keys, f->key);
	/* a cache hit needs one stat, not open + fstat + close; with no
	 * entry to hit (a first run, --no-cache) the file is opened at once */
	int dirfd;
	char *abs;
	struct stat st;
	int fd = -1;
	FileStat fst;
	if (!cache_is_empty(ft->cache)) {
		if (!stat_file(ft, f, &dirfd, &abs))
			return;
		fst = file_stat(f);
		const Facts *cf = cache_by_stat(ft->cache, key, &fst, &f->hash);
		if (cf) {
			free(abs);
			f->facts = (Facts *)cf;
			__atomic_add_fetch(&ft->cache_hits, 1, __ATOMIC_RELAXED);
			cache_put(ft->cache, key, &fst, f->hash, cf);
			return;
		}
	} else {
		dirfd = at_dir(ft, key, &abs);
	}
	/* O_NONBLOCK: a FIFO named like a source file must not hang the open */
	fd = openat(dirfd, abs ? abs : key, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	free(abs);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		f->flags |= F_READ_ERROR;
		return;
	}
	/* what is read is what the open file says, should it have changed */
	set_stat(f, &st);
	fst = file_stat(f);
	if (f->size + 1 > w->cap) {
		w->cap = f->size + 1 > 65536 ? f->size + 1 : 65536;
		free(w->buf);
		w->buf = xmalloc(w->cap);
	}
	size_t got = read_full(fd, w->buf, f->size);
	close(fd);
	if (got != f->size) {
		f->flags |= F_READ_ERROR;
		return;
	}
	w->buf[got] = 0;
	f->hash = hash_bytes(w->buf, got);
	__atomic_add_fetch(&ft->bytes_read, got, __ATOMIC_RELAXED);
	const Facts *cf = ft->cache ? cache_by_hash(ft->cache, f->hash) : NULL;
	if (cf) {
		f->facts = (Facts *)cf;
		__atomic_add_fetch(&ft->cache_hits, 1, __ATOMIC_RELAXED);
	} else {
		f->facts = lex_file(w->buf, got, &w->scratch);
		f->facts_owned = true;
		__atomic_add_fetch(&ft->lexed, 1, __ATOMIC_RELAXED);
	}
	if (ft->cache)
		cache_put(ft->cache, key, &fst, f->hash, f->facts);
}

static Worker main_worker;

Facts *fs_facts(FileTable *ft, int id)
{
	File *f = &ft->files[id];
	if (!f->facts && !(f->flags & F_READ_ERROR))
		load_file(ft, id, &main_worker);
	if (!f->facts && !(f->flags & F_REPORTED)) {
		f->flags |= F_REPORTED;
		diag(intern_str(ft->keys, f->key), 0, "cannot read file: %s",
		     errno ? strerror(errno) : "read error");
	}
	return f->facts;
}

typedef struct {
	FileTable *ft;
	const int *files;
	int n;
	int next;
	bool symbols; /* also read symbol facts */
	/* fs_symbols_detached: copies of the File entries instead of files,
	 * and their path keys */
	File *copies;
	const char *const *keys;
	uint8_t *done;
	Progress *progress;
} LexJob;

/* Reads a file whole into w->buf (NUL-terminated); returns its length or
 * -1.  key: the file's path key (the string, so that no table is read).
 * *seen (may be NULL): the file's stat as it was opened. */
static long read_whole_key(FileTable *ft, const char *key, Worker *w, FileStat *seen)
{
	char *abs;
	int dirfd = at_dir(ft, key, &abs);
	int fd = openat(dirfd, abs ? abs : key, O_RDONLY | O_CLOEXEC);
	free(abs);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (seen) {
		File now = {0};
		set_stat(&now, &st);
		*seen = file_stat(&now);
	}
	size_t size = (size_t)st.st_size;
	if (size + 1 > w->cap) {
		w->cap = size + 1 > 65536 ? size + 1 : 65536;
		free(w->buf);
		w->buf = xmalloc(w->cap);
	}
	size_t got = read_full(fd, w->buf, size);
	close(fd);
	w->buf[got] = 0;
	return (long)got;
}

static long read_whole(FileTable *ft, int id, Worker *w)
{
	return read_whole_key(ft, intern_str(ft->keys, ft->files[id].key), w, NULL);
}

struct InCache {
	Cache *cache;
	const char *key;
	bool placed;
};

static void *in_cache(void *arg, size_t size)
{
	struct InCache *in = arg;
	void *at = cache_reserve_block(in->cache, in->key, size);
	in->placed = at != NULL;
	return at;
}

/* f's symbol facts, f's directive facts being read: from the symbols
 * cache or by reading the file again.  Reads nothing of the file table
 * but the root (see fs_symbols_detached). */
static void symbols_of_file(FileTable *ft, File *f, const char *key, Worker *w)
{
	if (f->syms || !f->facts)
		return;
	if (f->facts->directives_only) {
		/* nothing to read, and nothing to cache: the directives say it
		 * all (a third of the kernel's bytes are such #define tables) */
		if (!w->decl)
			w->decl = decl_scratch_new();
		f->syms = decl_directives(f->facts, w->decl);
		return;
	}
	FileStat fst = file_stat(f);
	if (ft->syms_cache && f->stat_ok) {
		const Symbols *cs = cache_block_by_hash(ft->syms_cache, f->hash);
		if (cs) {
			f->syms = (Symbols *)cs;
			f->syms_mapped = true;
			__atomic_add_fetch(&ft->syms_cache_hits, 1, __ATOMIC_RELAXED);
			cache_put_block(ft->syms_cache, key, &fst, f->hash, cs);
			return;
		}
	}
	if (!w->decl)
		w->decl = decl_scratch_new();
	FileStat seen;
	long n = read_whole_key(ft, key, w, &seen);
	if (n < 0)
		return;
	/* cached under the facts' hash when the bytes just read are the ones
	 * it was taken of: the same stat, as the facts cache trusts it (no
	 * second pass over every byte), or else the same hash */
	bool same = file_stat_same(&seen, &fst) && (uint64_t)n == fst.size;
	if (!ft->syms_cache || !f->stat_ok || !(same || hash_bytes(w->buf, (size_t)n) == f->hash)) {
		f->syms = decl_file(w->buf, (size_t)n, f->facts, w->decl);
		return;
	}
	/* made where the cache file will have it */
	struct InCache in = {ft->syms_cache, key, false};
	f->syms = decl_file_placed(w->buf, (size_t)n, f->facts, w->decl, &(BlockPlace){in_cache, &in});
	f->syms_mapped = in.placed;
	cache_put_block(ft->syms_cache, key, &fst, f->hash, f->syms);
}

static void load_symbols(FileTable *ft, int id, Worker *w)
{
	load_file(ft, id, w);
	symbols_of_file(ft, &ft->files[id], intern_str(ft->keys, ft->files[id].key), w);
}

static void worker_free(Worker *w)
{
	free(w->buf);
	lex_scratch_free(&w->scratch);
	decl_scratch_free(w->decl);
}

static void *lex_worker(void *arg)
{
	LexJob *job = arg;
	Worker w = {0};
	for (;;) {
		int i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
		if (i >= job->n)
			break;
		if (job->copies) {
			symbols_of_file(job->ft, &job->copies[i], job->keys[i], &w);
			if (job->done)
				__atomic_store_n(&job->done[i], 1, __ATOMIC_RELEASE);
		} else if (job->symbols)
			load_symbols(job->ft, job->files[i], &w);
		else
			load_file(job->ft, job->files[i], &w);
		progress_add(job->progress, 1);
	}
	worker_free(&w);
	return NULL;
}

static void run_jobs(LexJob *job, int threads);

void fs_lex_all(FileTable *ft, const int *files, int n, int threads)
{
	LexJob job = {ft, files, n, 0, false, NULL, NULL, NULL, NULL};
	run_jobs(&job, threads);
}

static void open_syms_cache(FileTable *ft)
{
	if (ft->cache && !ft->syms_cache && !decl_has_extra_macros())
		ft->syms_cache = cache_open_kind(ft->root, CACHE_SYMBOLS);
}

void fs_symbols_all(FileTable *ft, const int *files, int n, int threads)
{
	open_syms_cache(ft);
	LexJob job = {ft, files, n, 0, true, NULL, NULL, NULL, NULL};
	run_jobs(&job, threads);
}

void fs_symbols_detached(FileTable *ft, File *files, const char *const *keys, int n, int threads,
			 uint8_t *done)
{
	open_syms_cache(ft);
	LexJob job = {ft, NULL, n, 0, true, files, keys, done, NULL};
	run_jobs(&job, threads);
}

/* A few files take no time: a progress line only for many. */
enum { PROGRESS_FROM = 256 };

static void run_jobs(LexJob *job, int threads)
{
	if (job->n >= PROGRESS_FROM)
		job->progress = progress_begin(NULL, job->symbols ? "files' symbols read" : "files read", job->n);
	run_threads(lex_worker, job, threads < 1 ? 1 : threads);
	progress_end(job->progress);
}

void fs_report_errors(FileTable *ft, int id)
{
	File *f = &ft->files[id];
	if (!f->facts || (f->flags & F_REPORTED))
		return;
	f->flags |= F_REPORTED;
	for (int i = 0; i < f->facts->nerrors; i++)
		diag(intern_str(ft->keys, f->key), f->facts->errors[i].line, "%s",
		     facts_error_text(f->facts->errors[i].kind));
}

char *fs_read(FileTable *ft, int file, size_t *len)
{
	Worker w = {0};
	long n = read_whole(ft, file, &w);
	if (n < 0) {
		free(w.buf);
		return NULL;
	}
	*len = (size_t)n;
	return w.buf;
}
