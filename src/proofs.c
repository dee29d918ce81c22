/*
 * proofs.c — the set of passed compiles (see proofs.h).
 *
 * The file: "HDRSLIMP" u32 version u32 count, count x u64 key, u64 hash
 * of everything before it.  In memory an open-addressing table that
 * doubles at half full, so it can never fill up.
 */
#include "proofs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "cache.h"
#include "edit.h"
#include "util.h"

#define PROOFS_MAGIC "HDRSLIMP"
#define PROOFS_VERSION 1u

struct Proofs {
	char *path;
	uint64_t *slot; /* 0: empty */
	size_t cap, n;
	bool grew;
};

static void table_put(Proofs *p, uint64_t key)
{
	if (2 * (p->n + 1) > p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 1024;
		uint64_t *old = p->slot;
		size_t oldcap = p->cap;
		p->slot = xcalloc(cap, sizeof(uint64_t));
		p->cap = cap;
		p->n = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				table_put(p, old[i]);
		free(old);
	}
	for (size_t i = key & (p->cap - 1);; i = (i + 1) & (p->cap - 1)) {
		if (p->slot[i] == key)
			return;
		if (!p->slot[i]) {
			p->slot[i] = key;
			p->n++;
			return;
		}
	}
}

bool proofs_has(const Proofs *p, uint64_t key)
{
	if (!p || !p->cap || !key)
		return false;
	for (size_t i = key & (p->cap - 1);; i = (i + 1) & (p->cap - 1)) {
		if (p->slot[i] == key)
			return true;
		if (!p->slot[i])
			return false;
	}
}

void proofs_add(Proofs *p, uint64_t key)
{
	if (!p || !key || proofs_has(p, key))
		return;
	table_put(p, key);
	p->grew = true;
}

Proofs *proofs_open(const char *root_abs)
{
	Proofs *p = xcalloc(1, sizeof(*p));
	p->path = cache_result_path(root_abs, "proofs");
	FILE *f = p->path ? fopen(p->path, "rb") : NULL;
	if (!f)
		return p;
	char magic[8];
	uint32_t head[2];
	if (fread(magic, 1, 8, f) == 8 && !memcmp(magic, PROOFS_MAGIC, 8) && fread(head, 4, 2, f) == 2 &&
	    head[0] == PROOFS_VERSION && head[1] < (1u << 28)) {
		uint64_t *keys = xmalloc(((size_t)head[1] + 1) * sizeof(uint64_t));
		uint64_t sum;
		if (fread(keys, 8, head[1], f) == head[1] && fread(&sum, 8, 1, f) == 1) {
			XXH3_state_t *st = XXH3_createState();
			XXH3_64bits_reset(st);
			XXH3_64bits_update(st, magic, 8);
			XXH3_64bits_update(st, head, sizeof head);
			XXH3_64bits_update(st, keys, (size_t)head[1] * 8);
			if (XXH3_64bits_digest(st) == sum)
				for (uint32_t i = 0; i < head[1]; i++)
					if (keys[i])
						table_put(p, keys[i]);
			XXH3_freeState(st);
		}
		free(keys);
	}
	fclose(f);
	return p;
}

void proofs_close(Proofs *p)
{
	if (!p)
		return;
	if (p->grew && p->path) {
		StrBuf sb = {0};
		uint32_t head[2] = {PROOFS_VERSION, (uint32_t)p->n};
		sb_add(&sb, PROOFS_MAGIC, 8);
		sb_add(&sb, (const char *)head, sizeof head);
		for (size_t i = 0; i < p->cap; i++)
			if (p->slot[i])
				sb_add(&sb, (const char *)&p->slot[i], 8);
		uint64_t sum = XXH3_64bits(sb.buf, sb.len);
		sb_add(&sb, (const char *)&sum, 8);
		cache_make_dir();
		char *err = NULL;
		if (!write_file_atomic(p->path, sb.buf, sb.len, 0644, &err))
			free(err);
		free(sb.buf);
	}
	free(p->slot);
	free(p->path);
	free(p);
}

/* ---- keys ---- */

/* A word naming an executable (as written or found in $PATH): its
 * resolved path, size and mtime go into the key, so that another compiler
 * under the same name proves nothing. */
static void put_binary(XXH3_state_t *st, const char *word)
{
	if (!*word || word[0] == '-' || strchr(word, '='))
		return;
	char *found = NULL;
	if (strchr(word, '/')) {
		found = realpath(word, NULL);
	} else {
		const char *path = getenv("PATH");
		for (const char *d = path ? path : ""; *d && !found;) {
			size_t len = strcspn(d, ":");
			char *cand = xasprintf("%.*s/%s", (int)len, d, word);
			struct stat sb;
			if (len && stat(cand, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 0111))
				found = realpath(cand, NULL);
			free(cand);
			d += len;
			if (*d == ':')
				d++;
		}
	}
	struct stat sb;
	if (found && stat(found, &sb) == 0 && S_ISREG(sb.st_mode)) {
		XXH3_64bits_update(st, found, strlen(found) + 1);
		uint64_t id[2] = {(uint64_t)sb.st_size,
				  (uint64_t)sb.st_mtim.tv_sec * 1000000000u + (uint64_t)sb.st_mtim.tv_nsec};
		XXH3_64bits_update(st, id, sizeof id);
	}
	free(found);
}

/* The leading words of a command line up to its first option: the
 * wrappers and the compiler. */
static void put_binaries_of_line(XXH3_state_t *st, const char *line)
{
	for (const char *p = line;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t len = strcspn(p, " \t");
		if (!len || *p == '-')
			return;
		char *word = xstrndup(p, len);
		put_binary(st, word);
		free(word);
		p += len;
	}
}

uint64_t proofs_command_key(char *const *argv, const char *cwd)
{
	XXH3_state_t *st = XXH3_createState();
	XXH3_64bits_reset(st);
	XXH3_64bits_update(st, "cmd", 4);
	for (int i = 0; argv && argv[i]; i++)
		XXH3_64bits_update(st, argv[i], strlen(argv[i]) + 1);
	XXH3_64bits_update(st, cwd ? cwd : "", cwd ? strlen(cwd) + 1 : 1);
	/* `sh -c LINE` (a Kbuild command): the compiler is inside LINE */
	if (argv && argv[0] && argv[1] && argv[2] && !strcmp(argv[1], "-c") && ends_with(argv[0], "sh"))
		put_binaries_of_line(st, argv[2]);
	else
		for (int i = 0; argv && argv[i] && argv[i][0] != '-'; i++)
			put_binary(st, argv[i]);
	uint64_t h = XXH3_64bits_digest(st);
	XXH3_freeState(st);
	return h;
}

/* ---- the preprocessed output ---- */

struct PpHash {
	XXH3_state_t *st;
	StrBuf line; /* a line not yet ended */
	bool sys;    /* inside a system header (line marker flag 3) */
};

PpHash *pphash_new(uint64_t command_key)
{
	PpHash *h = xcalloc(1, sizeof(*h));
	h->st = XXH3_createState();
	XXH3_64bits_reset(h->st);
	XXH3_64bits_update(h->st, &command_key, sizeof command_key);
	return h;
}

/* `# 12 "file" 1 3`: the flags after the name; 3 is a system header. */
static bool marker_says_system(const char *s, size_t n)
{
	const char *q = memchr(s, '"', n);
	if (!q)
		return false;
	const char *e = s + n, *p = q + 1;
	while (p < e && *p != '"')
		p += *p == '\\' && p + 1 < e ? 2 : 1;
	for (p++; p < e; p++)
		if (*p == '3' && (p[-1] == ' ') && (p + 1 == e || p[1] == ' '))
			return true;
	return false;
}

static void take_line(PpHash *h, const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r'))
		k++;
	if (k == n)
		return; /* blank: gcc writes these to keep line numbers */
	if (n >= 3 && s[0] == '#' && s[1] == ' ' && s[2] >= '0' && s[2] <= '9') {
		bool sys = marker_says_system(s, n);
		if (sys != h->sys) {
			h->sys = sys;
			XXH3_64bits_update(h->st, sys ? "\1S\n" : "\1U\n", 3);
		}
		return;
	}
	XXH3_64bits_update(h->st, s, n);
	XXH3_64bits_update(h->st, "\n", 1);
}

void pphash_feed(PpHash *h, const char *bytes, size_t len)
{
	const char *p = bytes, *e = bytes + len;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl) {
			sb_add(&h->line, p, (size_t)(e - p));
			return;
		}
		if (h->line.len) {
			sb_add(&h->line, p, (size_t)(nl - p));
			take_line(h, h->line.buf, h->line.len);
			h->line.len = 0;
		} else {
			take_line(h, p, (size_t)(nl - p));
		}
		p = nl + 1;
	}
}

uint64_t pphash_end(PpHash *h)
{
	if (h->line.len)
		take_line(h, h->line.buf, h->line.len);
	uint64_t key = XXH3_64bits_digest(h->st);
	XXH3_freeState(h->st);
	free(h->line.buf);
	free(h);
	return key ? key : 1;
}
