/*
 * intern.c — an open-addressing hash table from byte strings to dense ids.
 * Strings live in an arena; the table stores ids and caches each string's
 * hash so growing never rehashes bytes.
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

struct Interner {
	Entry *entries; /* by id */
	int count, cap_entries;
	int32_t *slots; /* id + 1, 0 = empty */
	uint32_t mask;
	Arena strings;
};

static uint32_t hash_str(const char *s, size_t n)
{
	return (uint32_t)hash_bytes(s, n);
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

static void grow(Interner *in)
{
	uint32_t mask = in->mask * 2 + 1;
	int32_t *slots = xcalloc((size_t)mask + 1, sizeof(*slots));
	for (int id = 0; id < in->count; id++) {
		uint32_t i = in->entries[id].hash & mask;
		while (slots[i])
			i = (i + 1) & mask;
		slots[i] = id + 1;
	}
	free(in->slots);
	in->slots = slots;
	in->mask = mask;
}

int intern_find(const Interner *in, const char *s, size_t n)
{
	uint32_t h = hash_str(s, n);
	for (uint32_t i = h & in->mask;; i = (i + 1) & in->mask) {
		int32_t slot = in->slots[i];
		if (!slot)
			return -1;
		const Entry *e = &in->entries[slot - 1];
		if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
			return slot - 1;
	}
}

int intern(Interner *in, const char *s, size_t n)
{
	uint32_t h = hash_str(s, n);
	uint32_t i;
	for (i = h & in->mask;; i = (i + 1) & in->mask) {
		int32_t slot = in->slots[i];
		if (!slot)
			break;
		const Entry *e = &in->entries[slot - 1];
		if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
			return slot - 1;
	}
	if (in->count == in->cap_entries) {
		in->cap_entries = in->cap_entries ? in->cap_entries * 2 : 1024;
		in->entries = xrealloc(in->entries, (size_t)in->cap_entries * sizeof(Entry));
	}
	int id = in->count++;
	in->entries[id] = (Entry){arena_strndup(&in->strings, s, n), (uint32_t)n, h};
	in->slots[i] = id + 1;
	if ((uint32_t)in->count * 2 > in->mask)
		grow(in);
	return id;
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
	       ((size_t)in->mask + 1) * sizeof(int32_t);
}
