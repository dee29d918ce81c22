/*
 * cache.c — the on-disk facts cache.
 *
 * Layout (native endianness, every record 8-byte aligned):
 *   header  { "HDRSLIMD", u32 version, u32 count, u64 file length }
 *   entries { u32 key_len, u32 block_size, u64 size, mtime_ns, ctime_ns, ino, hash,
 *             u64 check, u32 flags, u32 ~flags, key bytes (NUL-padded to 8),
 *             block (block_size bytes) }
 * A truncated file is detected by its length and the entries' sizes, and
 * ignored.  Each entry carries a hash of its key and block (check), which
 * is verified the first time the entry is handed out, with the block's
 * internal consistency; a damaged entry is a miss.  So opening the cache
 * reads only the entry heads, and a run about a few files reads only
 * their entries, not the whole file (half a gigabyte for the kernel).
 * The flags summarize the block for a run that needs to know only that
 * much about most files (CACHE_NAMES_CODE: Facts.names_code); stored
 * twice, so that a damaged head reads as "unknown", never as a wrong 0.
 * Two kinds of cache use
 * this layout, each in a file of its own: directive Facts (.facts) and
 * symbol facts (.syms); both blocks start with their u32 size.
 *
 * A run that changed a few entries does not rewrite the whole file (half
 * a gigabyte for the kernel): it appends them to a journal beside it
 * (FILE.log), as one segment { "HDRSLIMJ", u32 version, u32 count,
 * u64 payload length, u64 payload hash } + entries, written with one
 * write().  Loading reads the journal's segments in order after the main
 * file, a later entry for a key replacing an earlier one, and stops at the
 * first damaged segment.  When the journal grows past a quarter of the
 * main file, or many entries are stale, the next save writes a new main
 * file and removes the journal.
 *
 * A run that computes most blocks anew (the first on a tree: a quarter of
 * a gigabyte of symbol facts for the kernel) has them made in place
 * (cache_reserve_block): in an unnamed file (O_TMPFILE) in the cache
 * directory, mapped, each block behind room for its entry's head and key,
 * so that the file is laid out as a cache file as the blocks come.  Saving
 * then writes the header and links the file into place; no block is
 * copied, and the blocks never take anonymous memory besides.  The file
 * grows by fallocate() ahead of the blocks, so a full disk fails a
 * fallocate (the blocks are then malloc'd), never a store to a mapped page.
 */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decl.h"
#include "util.h"

typedef struct {
	uint32_t key_len, block_size;
	FileStat st;
	uint64_t hash;
	uint64_t check; /* entry_check of key and block */
	uint32_t flags, not_flags;
} EntryHead;

typedef struct {
	const char *key;
	uint32_t key_len;
	FileStat st;
	uint64_t hash;
	const void *block; /* Facts or Symbols */
	uint64_t check;
	uint32_t flags;  /* all bits set when the head's two copies differ */
	uint8_t verified; /* 0 not yet, 1 good, 2 damaged (set by any thread) */
	bool kept;       /* used by this run, unchanged */
	bool in_place;   /* its head and key are before its block in the arena */
	bool superseded; /* this run, or the journal, has newer facts for the key */
} Entry;
typedef VEC(Entry) EntryVec;

struct Cache {
	CacheKind kind;
	uint32_t version;
	char *path;
	char *data; /* the mapped cache file */
	size_t data_len;
	char *jdata; /* the mapped journal */
	size_t jdata_len;
	Entry *loaded;
	int nloaded;
	uint32_t *by_key, *by_hash; /* open addressing: entry index + 1 */
	uint32_t mask;
	pthread_mutex_t lock;
	EntryVec added;
	int kept;
	bool disabled;
	/* A run may save while it still reads files (cache_save says how):
	 * the first save works on a copy of what was there, a later one puts
	 * what came since into the journal. */
	bool saved;
	int saved_added;    /* added[0 .. saved_added) are saved */
	uint8_t *in_file;   /* by loaded entry: in the cache file after the
			     * first save (kept, or every one but the
			     * superseded when it was not rewritten) */
	/* blocks made in place (cache_reserve_block), NULL arena: none yet */
	char *arena;        /* ARENA_SPACE bytes mapped of arena_fd */
	int arena_fd;
	size_t arena_used;  /* handed out, from the header on */
	size_t arena_len;   /* the file's length: fallocated so far */
	int arena_entries;  /* blocks handed out */
	int arena_open;     /* handed out, not yet put */
	bool arena_off;     /* no (more) blocks in place: it failed, or is saved */
	int in_place_saved; /* blocks the file was saved with where they were made */
};

/* Address space for the blocks made in place (only what is used is
 * backed), and the steps the file grows by. */
#define ARENA_SPACE ((size_t)1 << 36)
#define ARENA_STEP ((size_t)32 << 20)

#define MAGIC "HDRSLIMD"
#define JMAGIC "HDRSLIMJ"

static uint64_t key_hash(const char *k, size_t n)
{
	return hash_bytes(k, n);
}

/* An entry's key, NUL-terminated and padded to 8 bytes. */
static size_t key_pad(size_t key_len)
{
	return (key_len + 1 + 7) & ~(size_t)7;
}

static char *cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	if (xdg && xdg[0] == '/')
		return xasprintf("%s/hdrslim", xdg);
	const char *home = getenv("HOME");
	if (!home || home[0] != '/')
		return NULL;
	return xasprintf("%s/.cache/hdrslim", home);
}

void cache_make_dir(void)
{
	char *dir = cache_dir();
	if (dir) {
		char *parent = path_dirname(dir);
		mkdir(parent, 0755);
		mkdir(dir, 0755);
		free(parent);
		free(dir);
	}
}

/* Every cache file of a tree is named by the hash of its root, then a
 * suffix: "-v8.facts", ".cost" ... */
static char *tree_file(const char *root_abs, const char *suffix)
{
	char *dir = cache_dir();
	if (!dir)
		return NULL;
	char *p = xasprintf("%s/%016llx%s", dir, (unsigned long long)hash_bytes(root_abs, strlen(root_abs)),
			    suffix);
	free(dir);
	return p;
}

char *cache_result_path(const char *root_abs, const char *name)
{
	char *suffix = xasprintf(".%s", name);
	char *p = tree_file(root_abs, suffix);
	free(suffix);
	return p;
}

static uint32_t kind_version(CacheKind kind)
{
	return kind == CACHE_SYMBOLS ? SYMBOLS_VERSION : FACTS_VERSION;
}

static char *cache_file_for(const char *root_abs, CacheKind kind)
{
	char *suffix = xasprintf("-v%u.%s", kind_version(kind), kind == CACHE_SYMBOLS ? "syms" : "facts");
	char *p = tree_file(root_abs, suffix);
	free(suffix);
	return p;
}

static bool facts_valid(const Facts *f, uint32_t size)
{
	if (f->size != size || size < sizeof(Facts))
		return false;
	uint64_t need = sizeof(Facts) + (uint64_t)f->ndirs * sizeof(Directive) + f->strs_len;
	if (need > size || f->strs_len == 0 || f->nerrors > FACTS_MAX_ERRORS)
		return false;
	const char *strs = facts_strs(f);
	if (strs[f->strs_len - 1] != 0)
		return false;
	const Directive *d = facts_dirs(f);
	for (uint32_t i = 0; i < f->ndirs; i++) {
		if ((uint64_t)d[i].name_off + d[i].name_len >= f->strs_len ||
		    (uint64_t)d[i].text_off + d[i].text_len >= f->strs_len ||
		    (uint64_t)d[i].args_off + d[i].args_len >= f->strs_len ||
		    d[i].next < -1 || d[i].next > (int32_t)f->ndirs || d[i].kind > D_LINE)
			return false;
	}
	if (f->guard >= (int32_t)f->ndirs ||
	    (uint64_t)f->guard_name_off + f->guard_name_len >= f->strs_len)
		return false;
	return true;
}

static bool symbols_valid(const Symbols *s, uint32_t size)
{
	if (s->size != size || size < sizeof(Symbols) || s->provide_strs)
		return false;
	uint64_t nent = (uint64_t)s->nprovides + s->nuses + s->npragmas;
	if (sizeof(Symbols) + nent * sizeof(SymEntry) + s->strs_len > size)
		return false;
	const SymEntry *e = sym_provides(s);
	for (uint64_t i = 0; i < nent; i++)
		if (e[i].name_len && (uint64_t)e[i].name_off + e[i].name_len >= s->strs_len)
			return false;
	return !s->strs_len || ((const char *)(e + nent))[s->strs_len - 1] == 0;
}

static bool block_valid(const Cache *c, const void *block)
{
	uint32_t size;
	memcpy(&size, block, 4);
	return c->kind == CACHE_SYMBOLS ? symbols_valid(block, size) : facts_valid(block, size);
}

static uint32_t block_size(const void *block)
{
	uint32_t size;
	memcpy(&size, block, 4);
	return size;
}

static uint64_t entry_check(const char *key, uint32_t key_len, const void *block)
{
	return hash_bytes(block, block_size(block)) ^ (key_hash(key, key_len) * 0x9e3779b97f4a7c15ull);
}

/* Whether a loaded entry is intact: its check and its block's structure,
 * verified once.  Threads may race to verify the same entry: both get
 * the same answer. */
static bool entry_ok(const Cache *c, Entry *e)
{
	uint8_t v = __atomic_load_n(&e->verified, __ATOMIC_RELAXED);
	if (v)
		return v == 1;
	bool ok = entry_check(e->key, e->key_len, e->block) == e->check && block_valid(c, e->block);
	__atomic_store_n(&e->verified, ok ? 1 : 2, __ATOMIC_RELAXED);
	return ok;
}

static void index_entries(Cache *c)
{
	uint32_t cap = 1024;
	while (cap < (uint32_t)c->nloaded * 2 + 2)
		cap *= 2;
	c->mask = cap - 1;
	c->by_key = xcalloc(cap, sizeof(uint32_t));
	c->by_hash = xcalloc(cap, sizeof(uint32_t));
	for (int i = 0; i < c->nloaded; i++) {
		Entry *e = &c->loaded[i];
		uint32_t h = (uint32_t)key_hash(e->key, e->key_len) & c->mask;
		while (c->by_key[h]) {
			Entry *o = &c->loaded[c->by_key[h] - 1];
			if (o->key_len == e->key_len && !memcmp(o->key, e->key, e->key_len)) {
				o->superseded = true; /* the journal has a newer one */
				break;
			}
			h = (h + 1) & c->mask;
		}
		c->by_key[h] = (uint32_t)i + 1;
		h = (uint32_t)e->hash & c->mask;
		while (c->by_hash[h])
			h = (h + 1) & c->mask;
		c->by_hash[h] = (uint32_t)i + 1;
	}
}

/* Parses count entries from data[off, end) into out; false when they do
 * not fit. */
static bool parse_entries(const char *data, size_t off, size_t end, uint32_t count, EntryVec *out)
{
	for (uint32_t i = 0; i < count; i++) {
		if (off + sizeof(EntryHead) > end)
			return false;
		EntryHead h;
		memcpy(&h, data + off, sizeof(h));
		off += sizeof(h);
		size_t kpad = key_pad(h.key_len);
		if (off + kpad + h.block_size > end || (h.block_size & 7) || h.block_size < 8)
			return false;
		Entry e = {.key = data + off, .key_len = h.key_len, .st = h.st, .hash = h.hash, .check = h.check,
			   .flags = h.flags == ~h.not_flags ? h.flags : UINT32_MAX};
		off += kpad;
		e.block = data + off;
		off += h.block_size;
		vec_push(out, e);
	}
	return off == end;
}

static char *map_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size < 24 || (uint64_t)st.st_size > (64ull << 30)) {
		close(fd);
		return NULL;
	}
	*len = (size_t)st.st_size;
	/* mapped, not read: no copy, pages come straight from the page cache,
	 * and only those of the entries a run uses */
	char *data = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return data == MAP_FAILED ? NULL : data;
}

static char *journal_path(const Cache *c)
{
	return xasprintf("%s.log", c->path);
}

static void load(Cache *c)
{
	EntryVec all = {0};
	size_t len = 0;
	char *data = map_file(c->path, &len);
	if (data) {
		uint32_t version, count;
		uint64_t file_len;
		memcpy(&version, data + 8, 4);
		memcpy(&count, data + 12, 4);
		memcpy(&file_len, data + 16, 8);
		if (memcmp(data, MAGIC, 8) != 0 || version != c->version || file_len != len ||
		    count > len / sizeof(EntryHead) || !parse_entries(data, 24, len, count, &all)) {
			munmap(data, len);
			data = NULL;
			all.n = 0;
		} else {
			c->data = data;
			c->data_len = len;
		}
	}
	char *jp = journal_path(c);
	size_t jlen = 0;
	char *j = map_file(jp, &jlen);
	free(jp);
	if (j) {
		size_t off = 0;
		while (off + 32 <= jlen) {
			uint32_t version, count;
			uint64_t plen, phash;
			memcpy(&version, j + off + 8, 4);
			memcpy(&count, j + off + 12, 4);
			memcpy(&plen, j + off + 16, 8);
			memcpy(&phash, j + off + 24, 8);
			if (memcmp(j + off, JMAGIC, 8) != 0 || version != c->version || plen > jlen - off - 32 ||
			    hash_bytes(j + off + 32, plen) != phash)
				break; /* a torn or foreign segment: what follows is not trusted */
			int before = all.n;
			if (!parse_entries(j, off + 32, off + 32 + plen, count, &all)) {
				all.n = before;
				break;
			}
			off += 32 + plen;
		}
		c->jdata = j;
		c->jdata_len = jlen;
	}
	c->loaded = all.v;
	c->nloaded = all.n;
	if (all.n)
		index_entries(c);
}

Cache *cache_open(const char *root_abs)
{
	return cache_open_kind(root_abs, CACHE_FACTS);
}

Cache *cache_open_kind(const char *root_abs, CacheKind kind)
{
	Cache *c = xcalloc(1, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->kind = kind;
	c->version = kind_version(kind);
	c->path = cache_file_for(root_abs, kind);
	if (!c->path) {
		c->disabled = true;
		return c;
	}
	load(c);
	return c;
}

const char *cache_path(const Cache *c)
{
	return c->path ? c->path : "(none)";
}

bool file_stat_same(const FileStat *a, const FileStat *b)
{
	return a->size == b->size && a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns &&
	       a->ino == b->ino;
}

/* The loaded entry for key (the latest, when the journal has several). */
static Entry *loaded_by_key(const Cache *c, const char *key, size_t n)
{
	if (!c->nloaded)
		return NULL;
	for (uint32_t h = (uint32_t)key_hash(key, n) & c->mask; c->by_key[h]; h = (h + 1) & c->mask) {
		Entry *e = &c->loaded[c->by_key[h] - 1];
		if (e->key_len == n && memcmp(e->key, key, n) == 0)
			return e;
	}
	return NULL;
}

const Facts *cache_by_stat(const Cache *c, const char *key, const FileStat *st, uint64_t *hash)
{
	Entry *e = loaded_by_key(c, key, strlen(key));
	if (!e || !file_stat_same(&e->st, st) || !entry_ok(c, e))
		return NULL;
	*hash = e->hash;
	return e->block;
}

bool cache_flags_by_stat(const Cache *c, const char *key, const FileStat *st, uint32_t *flags)
{
	const Entry *e = loaded_by_key(c, key, strlen(key));
	if (!e || !file_stat_same(&e->st, st) || __atomic_load_n(&e->verified, __ATOMIC_RELAXED) == 2)
		return false;
	*flags = e->flags;
	return true;
}

const Facts *cache_by_hash(const Cache *c, uint64_t hash)
{
	return cache_block_by_hash(c, hash);
}

const void *cache_block_by_hash(const Cache *c, uint64_t hash)
{
	if (!c->nloaded)
		return NULL;
	for (uint32_t h = (uint32_t)hash & c->mask; c->by_hash[h]; h = (h + 1) & c->mask) {
		Entry *e = &c->loaded[c->by_hash[h] - 1];
		if (e->hash == hash && entry_ok(c, e))
			return e->block;
	}
	return NULL;
}

void cache_put(Cache *c, const char *key, const FileStat *st, uint64_t hash, const Facts *f)
{
	cache_put_block(c, key, st, hash, f);
}

static uint32_t block_flags(const Cache *c, const void *block)
{
	return c->kind == CACHE_FACTS && ((const Facts *)block)->names_code ? CACHE_NAMES_CODE : 0;
}

/* The check written is the one the entry came with (read from the file,
 * or computed when it was put): a block damaged on disk and never used
 * keeps failing it, rather than being written out as good. */
static EntryHead entry_head(const Cache *c, const Entry *e)
{
	uint32_t flags = block_flags(c, e->block);
	return (EntryHead){e->key_len, block_size(e->block), e->st, e->hash, e->check, flags, ~flags};
}

static size_t entry_bytes(const Entry *e)
{
	return sizeof(EntryHead) + key_pad(e->key_len) + block_size(e->block);
}

/* e as the file holds it (head, padded key, block) at `at`; its size. */
static size_t entry_copy(const Cache *c, const Entry *e, char *at)
{
	EntryHead h = entry_head(c, e);
	size_t kpad = key_pad(e->key_len);
	memcpy(at, &h, sizeof(h));
	memset(at + sizeof(h), 0, kpad);
	memcpy(at + sizeof(h), e->key, e->key_len);
	memcpy(at + sizeof(h) + kpad, e->block, block_size(e->block));
	return entry_bytes(e);
}

/* Opens the arena on the first block asked for; under c->lock. */
static bool arena_ready(Cache *c)
{
	if (c->arena)
		return !c->arena_off;
	if (c->arena_off || c->disabled || !c->path)
		return false;
	c->arena_off = true; /* unless all goes well */
	cache_make_dir();
	char *dir = path_dirname(c->path);
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	free(dir);
	if (fd < 0)
		return false; /* a file system without unnamed files: blocks are malloc'd */
	void *p = mmap(NULL, ARENA_SPACE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return false;
	}
	c->arena = p;
	c->arena_fd = fd;
	c->arena_used = 24; /* the header, written last */
	c->arena_off = false;
	return true;
}

/* Makes the arena's file at least len bytes long; under c->lock. */
static bool arena_grow(Cache *c, size_t len)
{
	while (c->arena_len < len) {
		if (c->arena_len + ARENA_STEP > ARENA_SPACE ||
		    fallocate(c->arena_fd, 0, (off_t)c->arena_len, (off_t)ARENA_STEP) != 0)
			return false;
		c->arena_len += ARENA_STEP;
	}
	return true;
}

void *cache_reserve_block(Cache *c, const char *key, size_t size)
{
	size_t n = strlen(key);
	if (!c || !n || n > UINT32_MAX || size < 8 || (size & 7) || size > UINT32_MAX)
		return NULL;
	size_t need = sizeof(EntryHead) + key_pad(n) + size;
	char *at = NULL;
	pthread_mutex_lock(&c->lock);
	if (arena_ready(c)) {
		if (arena_grow(c, c->arena_used + need)) {
			at = c->arena + c->arena_used;
			c->arena_used += need;
			c->arena_entries++;
			c->arena_open++;
		} else {
			c->arena_off = true; /* what is there stays; the rest is malloc'd */
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (!at)
		return NULL;
	/* flags and not_flags both 0: open (see in_place_head) */
	EntryHead h = {.key_len = (uint32_t)n, .block_size = (uint32_t)size};
	memcpy(at, &h, sizeof(h));
	memset(at + sizeof(h), 0, key_pad(n));
	memcpy(at + sizeof(h), key, n);
	return at + sizeof(h) + key_pad(n);
}

/* The head before block when block was handed out by cache_reserve_block
 * for this key and is not put yet; under c->lock. */
static EntryHead *in_place_head(const Cache *c, const char *key, size_t n, const void *block)
{
	const char *b = block;
	if (!c->arena || b < c->arena + 24 + sizeof(EntryHead) || b >= c->arena + c->arena_used)
		return NULL;
	EntryHead *h = (EntryHead *)(b - key_pad(n) - sizeof(EntryHead));
	if ((const char *)h < c->arena + 24 || h->key_len != n || h->block_size != block_size(block) ||
	    h->flags || h->not_flags || memcmp(h + 1, key, n) != 0)
		return NULL;
	return h;
}

void cache_put_block(Cache *c, const char *key, const FileStat *st, uint64_t hash, const void *f)
{
	if (c->disabled)
		return;
	size_t n = strlen(key);
	Entry *old = loaded_by_key(c, key, n);
	pthread_mutex_lock(&c->lock);
	EntryHead *head = in_place_head(c, key, n, f);
	/* a block made in place is always written (it is there already);
	 * the same facts as a loaded entry keep that entry, unless a run
	 * found it damaged */
	if (old && !head && file_stat_same(&old->st, st) && old->hash == hash &&
	    __atomic_load_n(&old->verified, __ATOMIC_RELAXED) != 2) {
		if (!old->kept)
			old->kept = true, c->kept++;
		pthread_mutex_unlock(&c->lock);
		return;
	}
	if (old)
		old->superseded = true;
	pthread_mutex_unlock(&c->lock);
	/* the check now, on the caller's thread, while the block is in cache */
	Entry e = {.key_len = (uint32_t)n, .st = *st, .hash = hash, .block = f, .check = entry_check(key, n, f),
		   .in_place = head != NULL};
	pthread_mutex_lock(&c->lock);
	if (head) {
		*head = entry_head(c, &e);
		c->arena_open--;
	}
	e.key = head ? (const char *)(head + 1) : xstrndup(key, n);
	vec_push(&c->added, e);
	pthread_mutex_unlock(&c->lock);
}

/* Writes gathered with writev(): the blocks (half a gigabyte for the
 * kernel) go from where they are to the file, never through a buffer;
 * only the entry heads are copied, into heads[]. */
enum { WRITER_IOV = 256 };

typedef struct {
	int fd;
	bool ok;
	struct iovec iov[WRITER_IOV];
	int niov;
	EntryHead heads[WRITER_IOV];
	int nheads;
} Writer;

static void flush(Writer *w)
{
	struct iovec *iov = w->iov;
	int n = w->niov;
	while (w->ok && n > 0) {
		ssize_t k = writev(w->fd, iov, n < IOV_MAX ? n : IOV_MAX);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->ok = false;
			break;
		}
		/* past the iovecs written whole; a short write leaves the
		 * rest of one */
		size_t left = (size_t)k;
		while (n > 0 && left >= iov->iov_len) {
			left -= iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + left;
			iov->iov_len -= left;
		}
	}
	w->niov = 0;
	w->nheads = 0;
}

static void put(Writer *w, const void *p, size_t n)
{
	if (!n)
		return;
	if (w->niov == WRITER_IOV)
		flush(w);
	w->iov[w->niov++] = (struct iovec){(void *)p, n};
}

static void write_entry(const Cache *c, Writer *w, const Entry *e)
{
	static const char zeros[8];
	size_t kpad = key_pad(e->key_len);
	if (w->niov + 4 > WRITER_IOV)
		flush(w);
	EntryHead *h = &w->heads[w->nheads++];
	*h = entry_head(c, e);
	put(w, h, sizeof(*h));
	put(w, e->key, e->key_len);
	put(w, zeros, kpad - e->key_len);
	put(w, e->block, block_size(e->block));
}

/* Files of earlier versions of this cache (same tree, same kind) can
 * never be read again: path is DIR/HASH-vN.KIND. */
static void remove_old_versions(const Cache *c)
{
	const char *v = strrchr(c->path, 'v');
	const char *dot = strrchr(c->path, '.');
	if (!v || !dot || dot < v)
		return;
	for (uint32_t old = 1; old < c->version; old++) {
		char *p = xasprintf("%.*sv%u%s", (int)(v - c->path), c->path, old, dot);
		char *jp = xasprintf("%s.log", p);
		unlink(p);
		unlink(jp);
		free(jp);
		free(p);
	}
}

/* A new cache file is in place: the journal and files of older versions
 * are not needed. */
static void replaced(const Cache *c)
{
	char *jp = journal_path(c);
	unlink(jp); /* all it held is in the new file */
	free(jp);
	remove_old_versions(c);
}

/* Streams the entries to a temporary file, then writes the header,
 * renames the file into place and removes the journal. */
static void write_all(Cache *c, const uint8_t *write_loaded, const Entry *added, int nadded)
{
	cache_make_dir();
	char *tmp = xasprintf("%s.tmp.%d", c->path, (int)getpid());
	Writer *w = xcalloc(1, sizeof(Writer));
	w->fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	w->ok = w->fd >= 0;
	if (!w->ok) {
		warn_at(c->path, 0, "cannot write the cache: %s", strerror(errno));
		free(tmp);
		free(w);
		return;
	}
	static const char header[24]; /* written last, when the count is known */
	put(w, header, sizeof(header));
	uint32_t count = 0;
	for (int i = 0; i < c->nloaded; i++)
		if (write_loaded[i])
			write_entry(c, w, &c->loaded[i]), count++;
	for (int i = 0; i < nadded; i++)
		write_entry(c, w, &added[i]), count++;
	flush(w);
	off_t end = w->ok ? lseek(w->fd, 0, SEEK_CUR) : -1;
	uint64_t file_len = end < 0 ? 0 : (uint64_t)end;
	uint32_t version = c->version;
	char head[24];
	memcpy(head, MAGIC, 8);
	memcpy(head + 8, &version, 4);
	memcpy(head + 12, &count, 4);
	memcpy(head + 16, &file_len, 8);
	if (end < 0 || pwrite(w->fd, head, sizeof(head), 0) != (ssize_t)sizeof(head))
		w->ok = false;
	if (close(w->fd) != 0)
		w->ok = false;
	bool ok = w->ok;
	free(w);
	if (!ok || rename(tmp, c->path) != 0) {
		warn_at(c->path, 0, "cannot write the cache: %s", strerror(errno));
		unlink(tmp);
	} else {
		replaced(c);
	}
	free(tmp);
}

/* The arena made the new cache file: the entries that are not in it
 * appended (the loaded ones kept, blocks that were malloc'd), the header
 * written, the file linked into place.  False when a step fails; then
 * nothing has replaced the old file, and the caller writes it as usual
 * (the arena's blocks stay readable). */
static bool write_in_place(Cache *c, const uint8_t *write_loaded, const Entry *added, int nadded, size_t end,
			   int entries)
{
	uint32_t count = (uint32_t)entries;
	for (int i = 0; i < c->nloaded + nadded; i++) {
		bool loaded = i < c->nloaded;
		const Entry *e = loaded ? &c->loaded[i] : &added[i - c->nloaded];
		if (loaded ? !write_loaded[i] : e->in_place)
			continue;
		if (!arena_grow(c, end + entry_bytes(e)))
			return false;
		end += entry_copy(c, e, c->arena + end);
		count++;
	}
	uint32_t version = c->version;
	uint64_t file_len = end;
	memcpy(c->arena, MAGIC, 8);
	memcpy(c->arena + 8, &version, 4);
	memcpy(c->arena + 12, &count, 4);
	memcpy(c->arena + 16, &file_len, 8);
	if (ftruncate(c->arena_fd, (off_t)end) != 0)
		return false;
	/* an unnamed file gets a name through /proc (linkat's AT_EMPTY_PATH
	 * would need a capability) */
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", c->arena_fd);
	char *tmp = xasprintf("%s.tmp.%d", c->path, (int)getpid());
	unlink(tmp);
	bool ok = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0;
	if (ok && rename(tmp, c->path) != 0) {
		ok = false;
		unlink(tmp);
	}
	free(tmp);
	if (ok) {
		replaced(c);
		c->in_place_saved = entries;
	}
	return ok;
}

int cache_saved_in_place(const Cache *c)
{
	return c ? c->in_place_saved : 0;
}

/* Appends the entries to the journal as one segment; false when it
 * could not (then the caller writes the whole file). */
static bool append_journal(Cache *c, const Entry *added, int nadded)
{
	size_t plen = 0;
	for (int i = 0; i < nadded; i++)
		plen += entry_bytes(&added[i]);
	char *buf = malloc(32 + plen);
	if (!buf)
		return false;
	size_t at = 32;
	for (int i = 0; i < nadded; i++)
		at += entry_copy(c, &added[i], buf + at);
	uint32_t version = c->version, count = (uint32_t)nadded;
	uint64_t len64 = plen, phash = hash_bytes(buf + 32, plen);
	memcpy(buf, JMAGIC, 8);
	memcpy(buf + 8, &version, 4);
	memcpy(buf + 12, &count, 4);
	memcpy(buf + 16, &len64, 8);
	memcpy(buf + 24, &phash, 8);
	char *jp = journal_path(c);
	int fd = open(jp, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && write(fd, buf, 32 + plen) == (ssize_t)(32 + plen);
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	if (!ok && fd >= 0) /* a partial segment fails its hash: loads stop before it */
		warn_at(jp, 0, "cannot append to the cache journal: %s", strerror(errno));
	free(jp);
	free(buf);
	return ok;
}

/* A second save in one run: the entries added since the first, and the
 * loaded ones found unchanged since but not in the file it wrote, go to
 * the journal. */
static void save_late_entries(Cache *c)
{
	EntryVec late = {0};
	pthread_mutex_lock(&c->lock);
	for (int i = c->saved_added; i < c->added.n; i++)
		vec_push(&late, c->added.v[i]);
	c->saved_added = c->added.n;
	for (int i = 0; i < c->nloaded; i++)
		if (c->loaded[i].kept && !c->loaded[i].superseded && !c->in_file[i]) {
			vec_push(&late, c->loaded[i]);
			c->in_file[i] = 1;
		}
	pthread_mutex_unlock(&c->lock);
	if (late.n)
		append_journal(c, late.v, late.n);
	vec_free(&late);
}

struct CacheSave {
	Cache *c;
	Entry *added;   /* the added entries, copied */
	int nadded;
	uint8_t *keep;  /* by loaded entry: to be kept */
	int stale;
	/* the arena as it was: every block in it put, so it can become
	 * the new file (its length, its entries) */
	bool in_place;
	size_t arena_end;
	int arena_entries;
};

CacheSave *cache_save_begin(Cache *c, bool keep_unused)
{
	if (!c || c->disabled)
		return NULL;
	if (c->saved) {
		save_late_entries(c);
		return NULL;
	}
	CacheSave *sv = xcalloc(1, sizeof(*sv));
	sv->c = c;
	pthread_mutex_lock(&c->lock);
	sv->nadded = c->added.n;
	sv->added = xmalloc(((size_t)sv->nadded + 1) * sizeof(Entry));
	if (sv->nadded)
		memcpy(sv->added, c->added.v, (size_t)sv->nadded * sizeof(Entry));
	sv->keep = xmalloc((size_t)c->nloaded + 1);
	for (int i = 0; i < c->nloaded; i++) {
		sv->keep[i] = !c->loaded[i].superseded && (c->loaded[i].kept || keep_unused);
		sv->stale += !sv->keep[i];
	}
	if (c->arena && !c->arena_off && !c->arena_open) {
		sv->in_place = true;
		sv->arena_end = c->arena_used;
		sv->arena_entries = c->arena_entries;
	}
	c->arena_off = true; /* later blocks are malloc'd, and go to the journal */
	c->saved = true;
	c->saved_added = sv->nadded;
	c->in_file = xmalloc((size_t)c->nloaded + 1);
	pthread_mutex_unlock(&c->lock);
	return sv;
}

void cache_save_finish(CacheSave *sv)
{
	if (!sv)
		return;
	Cache *c = sv->c;
	/* a few changes go to the journal; a rewrite when it has grown, or
	 * when many entries are stale (superseded, or of files gone) */
	size_t added_bytes = 0;
	for (int i = 0; i < sv->nadded; i++)
		added_bytes += entry_bytes(&sv->added[i]);
	bool rewrite = false;
	if (!sv->nadded && !sv->stale)
		; /* nothing changed */
	else if (c->data && sv->nadded && c->jdata_len + added_bytes < c->data_len / 4 &&
		 sv->stale + sv->nadded < c->nloaded / 8 && append_journal(c, sv->added, sv->nadded))
		;
	else if (c->data && !sv->nadded && sv->stale < c->nloaded / 8)
		; /* only a few stale entries: not worth a rewrite */
	else
		rewrite = true;
	/* the loaded entries the file holds now: after a rewrite the ones it
	 * wrote, else all of them (the journal supersedes the changed ones) */
	for (int i = 0; i < c->nloaded; i++)
		c->in_file[i] = rewrite ? sv->keep[i] : 1;
	if (rewrite && !(sv->in_place && write_in_place(c, sv->keep, sv->added, sv->nadded, sv->arena_end,
							   sv->arena_entries)))
		write_all(c, sv->keep, sv->added, sv->nadded);
	free(sv->keep);
	free(sv->added);
	free(sv);
}

void cache_save(Cache *c, bool keep_unused)
{
	cache_save_finish(cache_save_begin(c, keep_unused));
}

bool cache_is_empty(const Cache *c)
{
	return !c || c->disabled || !c->nloaded;
}

void cache_drop_resident(Cache *c)
{
	/* MAP_PRIVATE and never written: the pages come back from the page
	 * cache, unchanged, when touched again */
	if (c && c->data)
		madvise(c->data, c->data_len, MADV_DONTNEED);
	if (c && c->jdata)
		madvise(c->jdata, c->jdata_len, MADV_DONTNEED);
}

void cache_free(Cache *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->added.n; i++)
		if (!c->added.v[i].in_place)
			free((char *)c->added.v[i].key);
	vec_free(&c->added);
	free(c->in_file);
	free(c->loaded);
	free(c->by_key);
	free(c->by_hash);
	if (c->data)
		munmap(c->data, c->data_len);
	if (c->jdata)
		munmap(c->jdata, c->jdata_len);
	if (c->arena) {
		munmap(c->arena, ARENA_SPACE);
		close(c->arena_fd);
	}
	free(c->path);
	free(c);
}

int cache_clear(const char *root_abs)
{
	/* every file named for this tree: facts and symbols of any version,
	 * their journals, kept results */
	char *any = tree_file(root_abs, "");
	if (!any)
		return -1;
	char *slash = strrchr(any, '/');
	*slash = 0;
	const char *prefix = slash + 1;
	size_t plen = strlen(prefix);
	int removed = 0;
	DIR *d = opendir(any);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (strncmp(e->d_name, prefix, plen) || (e->d_name[plen] != '-' && e->d_name[plen] != '.'))
			continue;
		char *p = path_join(any, e->d_name);
		removed += unlink(p) == 0;
		free(p);
	}
	if (d)
		closedir(d);
	free(any);
	return removed ? 0 : -1;
}
