/*
 * check_seeds.c — names a macro makes.  A macro may paste a name together
 * (get_##name, trace_##call): no file provides it in so many words, and
 * the file with the macro is its possible home.  Such a file has the
 * macro's name runs as seeds (SK_SEED: "sched_switch" for
 * trace_sched_switch_enabled; "P##" for a start P the body pastes onto).
 * Finding a name's seeds means looking up its '_'-separated runs among
 * millions of names: a Bloom filter of the seeds and a table of the
 * pasted starts' lengths keep that to the few runs that can match.
 */
#include "check_seeds.h"

#include <stdlib.h>
#include <string.h>

/* A filter of the names that are some file's seed, so that the runs of
 * a name that are none (nearly all) cost no lookup in the interner's
 * four million names: a run is hashed as it grows, one byte a step. */
#define SEED_BLOOM_BITS 20
#define RUN_HASH_START 14695981039346656037ull

static inline uint64_t run_hash_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * 1099511628211ull;
}

static inline void bloom_bits(uint64_t h, uint32_t *a, uint32_t *b)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	*a = (uint32_t)h & ((1u << SEED_BLOOM_BITS) - 1);
	*b = (uint32_t)(h >> 32) & ((1u << SEED_BLOOM_BITS) - 1);
}

static bool seed_bloom_has(const Check *ck, uint64_t h)
{
	uint32_t a, b;
	bloom_bits(h, &a, &b);
	return (ck->seed_bloom[a >> 6] >> (a & 63) & 1) && (ck->seed_bloom[b >> 6] >> (b & 63) & 1);
}

static void seed_bloom_add(Check *ck, const char *s, int n)
{
	uint64_t h = RUN_HASH_START;
	for (int i = 0; i < n; i++)
		h = run_hash_step(h, (unsigned char)s[i]);
	uint32_t a, b;
	bloom_bits(h, &a, &b);
	ck->seed_bloom[a >> 6] |= 1ull << (a & 63);
	ck->seed_bloom[b >> 6] |= 1ull << (b & 63);
}

/* 16 bits of hash of a name's first four bytes. */
static unsigned paste_hash4(const char *p)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < 4; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h >> 16;
}

/* Which lengths of P to try for a name: by its first two bytes for P of
 * two or three bytes, by a hash of its first four for longer ones (most
 * names start with "__" or the like, which would not tell them apart). */
static uint64_t paste_lengths(const Check *ck, const char *name, size_t n)
{
	uint64_t lens = ck->paste_lens[(unsigned char)name[0] << 8 | (unsigned char)name[1]] & 0xc;
	if (n >= 4) {
		lens |= ck->paste_lens[65536 + paste_hash4(name)] & ~0xfull;
	}
	return lens;
}

/* Calls fn(ck, sid, arg) for every seed "P##" whose P starts name (a name
 * some macro may make by pasting onto P), longest P first; stops when fn
 * returns false. */
static void for_pasted_seeds(const Check *ck, const char *name, size_t n,
			     bool (*fn)(const Check *, int, void *), void *arg)
{
	if (n < 2 || !ck->paste_lens)
		return;
	uint64_t lens = paste_lengths(ck, name, n);
	char buf[68];
	while (lens) {
		int len = 63 - __builtin_clzll(lens);
		lens &= ~(1ull << len);
		if ((size_t)len > n)
			continue;
		memcpy(buf, name, (size_t)len);
		memcpy(buf + len, "##", 2);
		int sid = find_name(ck, buf, (size_t)len + 2);
		if (sid >= 0 && ck->is_paste_seed[sid] && !fn(ck, sid, arg))
			return;
	}
}

static bool take_first(const Check *ck, int sid, void *arg)
{
	(void)ck;
	*(int *)arg = sid;
	return false;
}

int pasted_seed(const Check *ck, const char *name, size_t n)
{
	int sid = -1;
	for_pasted_seeds(ck, name, n, take_first, &sid);
	return sid;
}

void index_pasted_seeds(Check *ck, const int *has_seeds)
{
	int nn = ck->nnames;
	ck->paste_lens = xcalloc(2 * 65536, sizeof(uint64_t)); /* see paste_lengths */
	ck->is_paste_seed = xzalloc_now((size_t)nn + 1, 1);
	ck->seed_bloom = xzalloc_now((1u << SEED_BLOOM_BITS) / 64, sizeof(uint64_t));
	for (int id = 0; id < nn; id++) {
		if (!has_seeds[id])
			continue;
		int len = name_len(ck, id);
		const char *t = name_str(ck, id);
		seed_bloom_add(ck, t, len);
		if (len < 4 || len > 65 || t[len - 1] != '#' || t[len - 2] != '#')
			continue;
		ck->is_paste_seed[id] = 1;
		int plen = len - 2;
		if (plen < 4)
			ck->paste_lens[(unsigned char)t[0] << 8 | (unsigned char)t[1]] |= 1ull << plen;
		else
			ck->paste_lens[65536 + paste_hash4(t)] |= 1ull << plen;
	}
}

typedef struct {
	IntVec *out;
	int at;
} PoolAt;

static bool pool_seed(const Check *ck, int sid, void *arg)
{
	(void)ck;
	PoolAt *pa = arg;
	vec_push(pa->out, sid);
	pa->out->v[pa->at]++;
	return true;
}

void collect_seed_names(const Check *ck, int id, IntVec *out)
{
	int at = out->n;
	vec_push(out, 0);
	const char *name = name_str(ck, id);
	int len = name_len(ck, id);
	if (!strncmp(name, "struct ", 7))
		return;
	int starts[64], ns = 0;
	if (len <= 200)
		for (int i = 0; i < len && ns < 63; i++)
			if (i == 0 || (name[i - 1] == '_' && name[i] != '_'))
				starts[ns++] = i;
	for (int a = 0; a < ns; a++) {
		uint64_t h = RUN_HASH_START;
		for (int e = starts[a] + 1; e <= len; e++) {
			h = run_hash_step(h, (unsigned char)name[e - 1]);
			if (e < len && name[e] != '_')
				continue;
			if (!seed_bloom_has(ck, h))
				continue; /* no file has this run as a seed */
			int sid = find_name(ck, name + starts[a], (size_t)(e - starts[a]));
			/* the whole name too: glibc's __MATHCALL (floor,, ...)
			 * declares floor itself */
			if (sid < 0)
				continue;
			if (ck->seed_off[sid + 1] > ck->seed_off[sid]) {
				vec_push(out, sid);
				out->v[at]++;
			}
		}
	}
	PoolAt pa = {out, at};
	for_pasted_seeds(ck, name, (size_t)len, pool_seed, &pa);
}
