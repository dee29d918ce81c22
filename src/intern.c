/*
 * intern.c — an open-addressing hash table from byte strings to dense ids.
 * Strings live in an arena; the table stores ids with each string's hash,
 * so growing never rehashes bytes and a probe compares bytes only when the
 * hashes agree.  intern_hashed/intern_prefetch let a caller that interns
 * millions of names hash them in parallel beforehand and hide the table's
 * cache misses.
 */
#include "intern.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct {
	const char *s;
	uint32_t len;
	uint32_t hash;
} Entry;

/* A slot holds id + 1 (0: empty) and the string's hash, so a probe
 * touches the string only when the hashes agree. */
typedef struct {
	int32_t id1;
	uint32_t hash;
} Slot;

struct Interner {
	Entry *entries; /* by id */
	int count, cap_entries;
	Slot *slots;
	uint32_t mask;
	Arena strings;
};

static uint32_t hash_str(const char *s, size_t n)
{
	return (uint32_t)hash_bytes(s, n);
}

uint32_t intern_hash(const char *s, size_t n)
{
	return hash_str(s, n);
}

Interner *interner_new(void)
{
	Interner *in = xcalloc(1, sizeof(*in));
	in->mask = 1023;
	in->slots = xcalloc(in->mask + 1, sizeof(*in->slots));
	return in;
}

void interner_free(Interner *in)
{
	if (!in)
		return;
	free(in->entries);
	free(in->slots);
	arena_free(&in->strings);
	free(in);
}

static void resize(Interner *in, uint32_t mask)
{
	Slot *slots = xzalloc_now((size_t)mask + 1, sizeof(*slots));
	for (int id = 0; id < in->count; id++) {
		uint32_t h = in->entries[id].hash, i = h & mask;
		while (slots[i].id1)
			i = (i + 1) & mask;
		slots[i] = (Slot){id + 1, h};
	}
	free(in->slots);
	in->slots = slots;
	in->mask = mask;
}

void intern_reserve(Interner *in, int more)
{
	size_t want = ((size_t)in->count + (size_t)(more > 0 ? more : 0)) * 2;
	uint32_t mask = in->mask;
	while (mask < want && mask < 0x7fffffffu)
		mask = mask * 2 + 1;
	if (mask != in->mask)
		resize(in, mask);
	if (in->cap_entries < in->count + more) {
		in->cap_entries = in->count + more;
		in->entries = xrealloc(in->entries, (size_t)in->cap_entries * sizeof(Entry));
	}
}

void intern_prefetch(const Interner *in, uint32_t hash)
{
	__builtin_prefetch(&in->slots[hash & in->mask]);
}

static int find_hashed(const Interner *in, const char *s, size_t n, uint32_t h, uint32_t *at)
{
	uint32_t i;
	for (i = h & in->mask;; i = (i + 1) & in->mask) {
		const Slot *sl = &in->slots[i];
		if (!sl->id1)
			break;
		if (sl->hash != h)
			continue;
		const Entry *e = &in->entries[sl->id1 - 1];
		if (e->len == n && memcmp(e->s, s, n) == 0)
			return sl->id1 - 1;
	}
	*at = i;
	return -1;
}

int intern_find(const Interner *in, const char *s, size_t n)
{
	uint32_t at;
	return find_hashed(in, s, n, hash_str(s, n), &at);
}

int intern_find_hashed(const Interner *in, const char *s, size_t n, uint32_t h)
{
	uint32_t at;
	return find_hashed(in, s, n, h, &at);
}

static int add_hashed(Interner *in, const char *s, size_t n, uint32_t h, bool borrow)
{
	uint32_t i;
	int id = find_hashed(in, s, n, h, &i);
	if (id >= 0)
		return id;
	if (in->count == in->cap_entries) {
		in->cap_entries = in->cap_entries ? in->cap_entries * 2 : 1024;
		in->entries = xrealloc(in->entries, (size_t)in->cap_entries * sizeof(Entry));
	}
	id = in->count++;
	in->entries[id] = (Entry){borrow ? s : arena_strndup(&in->strings, s, n), (uint32_t)n, h};
	in->slots[i] = (Slot){id + 1, h};
	if ((uint32_t)in->count * 2 > in->mask)
		resize(in, in->mask * 2 + 1);
	return id;
}

int intern_hashed(Interner *in, const char *s, size_t n, uint32_t h)
{
	return add_hashed(in, s, n, h, false);
}

int intern_hashed_borrowed(Interner *in, const char *s, size_t n, uint32_t h)
{
	return add_hashed(in, s, n, h, true);
}

int intern(Interner *in, const char *s, size_t n)
{
	return intern_hashed(in, s, n, hash_str(s, n));
}

int intern_cstr(Interner *in, const char *s)
{
	return intern(in, s, strlen(s));
}

const char *intern_str(const Interner *in, int id)
{
	return in->entries[id].s;
}

int intern_len(const Interner *in, int id)
{
	return (int)in->entries[id].len;
}

int intern_count(const Interner *in)
{
	return in->count;
}

size_t interner_bytes(const Interner *in)
{
	return in->strings.used_total + (size_t)in->cap_entries * sizeof(Entry) +
	       ((size_t)in->mask + 1) * sizeof(Slot);
}
