/*
 * memo.c — a command's whole result, kept with the inputs it came from.
 *
 * The file (beside the facts cache, one per tree and command):
 *
 *   "HDRSLIMR" u32 version u32 0
 *   u64 inputs key      binary, configuration, listing (inputs_key)
 *   u32 nread u32 nmissing u64 payload length
 *   nread    x (u64 content hash, u32 length, path key)
 *   nmissing x (u32 length, path key)
 *   payload
 *   u64 hash of everything above
 *
 * The inputs key is computed once per run, right after lexing, and the
 * same value is written at the end: contexts created later (by the graph)
 * follow from the inputs, so a run that reuses the result must see exactly
 * what this run saw at the same point.
 */
#include "memo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "cache.h"

#define MEMO_MAGIC "HDRSLIMR"
#define MEMO_VERSION 1u

/* The running binary's hash (0 when it cannot be read: then nothing is
 * kept, as results of another build could differ). */
static uint64_t binary_hash(void)
{
	static uint64_t h;
	static bool done;
	if (done)
		return h;
	done = true;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	XXH3_state_t *st = XXH3_createState();
	XXH3_64bits_reset(st);
	char buf[1 << 16];
	ssize_t r;
	bool ok = true;
	while ((r = read(fd, buf, sizeof buf)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ok = false;
			break;
		}
		XXH3_64bits_update(st, buf, (size_t)r);
	}
	close(fd);
	h = ok ? XXH3_64bits_digest(st) | 1 : 0;
	XXH3_freeState(st);
	return h;
}

static void put_u32(XXH3_state_t *st, uint32_t v)
{
	XXH3_64bits_update(st, &v, sizeof v);
}

static void put_u64(XXH3_state_t *st, uint64_t v)
{
	XXH3_64bits_update(st, &v, sizeof v);
}

/* Strings end with their NUL so that ("ab", "c") and ("a", "bc") differ. */
static void put_str(XXH3_state_t *st, const char *s)
{
	XXH3_64bits_update(st, s, strlen(s) + 1);
}

/* Everything a result depends on that is known before the graph: see
 * memo.h.  0 means "cannot tell" (never matches). */
static uint64_t inputs_key(Session *s)
{
	uint64_t bin = binary_hash();
	if (!bin)
		return 0;
	FileTable *ft = &s->ft;
	/* A file's context first: in the kernel preset this may create the
	 * contexts of directories not seen yet, which the list below must
	 * then include. */
	int nfiles = ft->nfiles;
	int *ctx_of = xmalloc(((size_t)nfiles + 1) * sizeof(int));
	for (int i = 0; i < nfiles; i++)
		ctx_of[i] = fs_in_file_set(ft, i) ? session_ctx_for_file(s, i) : -1;
	XXH3_state_t *st = XXH3_createState();
	XXH3_64bits_reset(st);
	put_u64(st, bin);
	put_u32(st, MEMO_VERSION);
	put_str(st, ft->root);
	put_u32(st, (uint32_t)s->cfg.exact | (uint32_t)(s->kernel != NULL) << 1 |
			    (uint32_t)s->cfg.kernel_generic << 2 | (uint32_t)s->units_only << 3);
	put_u32(st, (uint32_t)s->cfg.chains.n);
	for (int c = 0; c < s->cfg.chains.n; c++) {
		const Chain *ch = &s->cfg.chains.v[c];
		put_u32(st, (uint32_t)ch->quote_end);
		put_u32(st, (uint32_t)ch->base);
		put_u32(st, (uint32_t)ch->extra_at);
		put_u32(st, ch->kernel_generic);
		put_u32(st, (uint32_t)ch->ndirs);
		for (int d = 0; d < ch->ndirs; d++)
			put_str(st, fs_keystr(ft, ch->dirs[d]));
	}
	put_u32(st, (uint32_t)s->cfg.ctxs.n);
	for (int c = 0; c < s->cfg.ctxs.n; c++)
		put_str(st, s->cfg.ctxs.v[c].sig);
	put_u32(st, (uint32_t)s->cfg.units.n);
	for (int u = 0; u < s->cfg.units.n; u++) {
		put_str(st, fs_keystr(ft, ft->files[s->cfg.units.v[u].file].key));
		put_u32(st, (uint32_t)s->cfg.units.v[u].ctx);
	}
	for (int i = 0; i < nfiles; i++) {
		const File *f = &ft->files[i];
		if (!(f->flags & (F_IN_TREE | F_DIR)))
			continue;
		put_str(st, fs_keystr(ft, f->key));
		put_u32(st, (uint32_t)(f->flags & (F_IN_TREE | F_EXCLUDED | F_DIR)));
		put_u32(st, (uint32_t)ctx_of[i]);
	}
	free(ctx_of);
	put_u32(st, (uint32_t)ft->walk_skipped.n);
	for (int i = 0; i < ft->walk_skipped.n; i++)
		put_str(st, fs_keystr(ft, ft->walk_skipped.v[i]));
	uint64_t h = XXH3_64bits_digest(st) | 1;
	XXH3_freeState(st);
	return h;
}

/* ---- reading ---- */

typedef struct {
	const unsigned char *p, *end;
	bool ok;
} Reader;

/* The next n bytes into out (zeros past the end, which makes r bad). */
static void take(Reader *r, void *out, size_t n)
{
	if ((size_t)(r->end - r->p) < n) {
		r->ok = false;
		memset(out, 0, n);
		return;
	}
	memcpy(out, r->p, n);
	r->p += n;
}

static uint32_t get_u32(Reader *r)
{
	uint32_t v;
	take(r, &v, sizeof v);
	return v;
}

static uint64_t get_u64(Reader *r)
{
	uint64_t v;
	take(r, &v, sizeof v);
	return v;
}

/* A path key of the record: interned, or -1 when the record is bad. */
static int get_key(Reader *r, FileTable *ft)
{
	uint32_t n = get_u32(r);
	if (!r->ok || n == 0 || (uint64_t)(r->end - r->p) < n || memchr(r->p, 0, n)) {
		r->ok = false;
		return -1;
	}
	/* keys are stored normalised: most are interned already */
	int key = intern_find(ft->keys, (const char *)r->p, n);
	if (key < 0) {
		char *k = xstrndup((const char *)r->p, n);
		key = fs_key(ft, k);
		free(k);
	}
	r->p += n;
	return key;
}

static char *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	off_t size = lseek(fd, 0, SEEK_END);
	if (size < 32 || size > (off_t)1 << 34 || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return NULL;
	}
	char *buf = xmalloc((size_t)size);
	size_t got = read_full(fd, buf, (size_t)size);
	close(fd);
	if (got != (size_t)size) {
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

bool memo_load(Session *s, const char *name, char **payload, size_t *len)
{
	*payload = NULL;
	*len = 0;
	if (!s->ft.cache)
		return false;
	phase("memo");
	s->memo_key = inputs_key(s);
	if (!s->memo_key)
		return false;
	char *path = cache_result_path(s->ft.root, name);
	size_t n = 0;
	char *buf = path ? read_file(path, &n) : NULL;
	free(path);
	if (!buf)
		return false;
	uint64_t sum;
	memcpy(&sum, buf + n - 8, 8);
	Reader r = {(const unsigned char *)buf, (const unsigned char *)buf + n - 8, true};
	bool ok = sum == hash_bytes(buf, n - 8) && !memcmp(buf, MEMO_MAGIC, 8);
	r.p += 8;
	ok = ok && get_u32(&r) == MEMO_VERSION;
	get_u32(&r);
	ok = ok && get_u64(&r) == s->memo_key;
	uint32_t nread = get_u32(&r), nmissing = get_u32(&r);
	uint64_t plen = get_u64(&r);
	FileTable *ft = &s->ft;
	for (uint32_t i = 0; ok && r.ok && i < nread; i++) {
		uint64_t h = get_u64(&r);
		int key = get_key(&r, ft);
		int id = r.ok ? fs_probe(ft, key) : -1;
		/* read again (from the facts cache, by stat) what is not yet */
		ok = id >= 0 && !(ft->files[id].flags & F_READ_ERROR) &&
		     (ft->files[id].facts || fs_facts(ft, id)) && ft->files[id].hash == h;
	}
	for (uint32_t i = 0; ok && r.ok && i < nmissing; i++) {
		int key = get_key(&r, ft);
		ok = r.ok && fs_probe(ft, key) < 0;
	}
	ok = ok && r.ok && (uint64_t)(r.end - r.p) == plen;
	if (ok) {
		*payload = xmalloc(plen + 1);
		memcpy(*payload, r.p, plen);
		(*payload)[plen] = 0;
		*len = plen;
	}
	free(buf);
	return ok;
}

/* ---- writing ---- */

static void add_u32(StrBuf *sb, uint32_t v)
{
	sb_add(sb, (const char *)&v, 4);
}

static void add_u64(StrBuf *sb, uint64_t v)
{
	sb_add(sb, (const char *)&v, 8);
}

static void add_key(StrBuf *sb, const char *k)
{
	add_u32(sb, (uint32_t)strlen(k));
	sb_adds(sb, k);
}

void memo_save(Session *s, const char *name, const void *payload, size_t len)
{
	if (!s->ft.cache || !s->memo_key || __atomic_load_n(&diag_seen, __ATOMIC_RELAXED))
		return;
	FileTable *ft = &s->ft;
	StrBuf sb = {0};
	sb_add(&sb, MEMO_MAGIC, 8);
	add_u32(&sb, MEMO_VERSION);
	add_u32(&sb, 0);
	add_u64(&sb, s->memo_key);
	size_t counts = sb.len;
	add_u32(&sb, 0);
	add_u32(&sb, 0);
	add_u64(&sb, len);
	uint32_t nread = 0, nmissing = 0;
	for (int i = 0; i < ft->nfiles; i++) {
		const File *f = &ft->files[i];
		if (f->flags & F_READ_ERROR)
			goto out; /* reported, so never here; but never keep it */
		if (!f->facts)
			continue;
		add_u64(&sb, f->hash);
		add_key(&sb, fs_keystr(ft, f->key));
		nread++;
	}
	for (int i = 0; i < ft->stat_misses.n; i++) {
		add_key(&sb, fs_keystr(ft, ft->stat_misses.v[i]));
		nmissing++;
	}
	memcpy(sb.buf + counts, &nread, 4);
	memcpy(sb.buf + counts + 4, &nmissing, 4);
	sb_add(&sb, payload, len);
	add_u64(&sb, hash_bytes(sb.buf, sb.len));

	char *path = cache_result_path(ft->root, name);
	if (!path)
		goto out;
	cache_make_dir();
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok = fd >= 0;
	for (size_t done = 0; ok && done < sb.len;) {
		ssize_t w = write(fd, sb.buf + done, sb.len - done);
		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		done += ok ? (size_t)w : 0;
	}
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
	free(tmp);
	free(path);
out:
	free(sb.buf);
}
