/*
 * incpath.c — search chains walked with a memo.
 *
 * The memo is an open-addressing table keyed by (chain, start index,
 * interned name).  The includer's own directory is not memoised here:
 * that probe is one lookup in the file table, which already remembers
 * hits and misses.
 */
#include "incpath.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	int chain, start, name; /* name == -1: empty slot */
	Resolved r;
} MemoSlot;

struct IncPath {
	Config *cfg;
	FileTable *ft;
	MemoSlot *slots;
	uint32_t mask, used;
	int generic_dirs[2];
};

IncPath *incpath_new(Config *cfg)
{
	IncPath *ip = xcalloc(1, sizeof(*ip));
	ip->cfg = cfg;
	ip->ft = cfg->ft;
	ip->mask = 4095;
	ip->slots = xmalloc((ip->mask + 1) * sizeof(MemoSlot));
	for (uint32_t i = 0; i <= ip->mask; i++)
		ip->slots[i].name = -1;
	ip->generic_dirs[0] = fs_key(ip->ft, "include/asm-generic");
	ip->generic_dirs[1] = fs_key(ip->ft, "include/uapi/asm-generic");
	return ip;
}

void incpath_free(IncPath *ip)
{
	if (!ip)
		return;
	free(ip->slots);
	free(ip);
}

static uint32_t memo_hash(int chain, int start, int name)
{
	uint64_t k = ((uint64_t)(uint32_t)name << 32) ^ ((uint64_t)(uint32_t)chain << 12) ^ (uint32_t)start;
	k *= 0x9E3779B97F4A7C15ull;
	return (uint32_t)(k >> 32);
}

static void memo_grow(IncPath *ip)
{
	uint32_t mask = ip->mask * 2 + 1;
	MemoSlot *slots = xmalloc(((size_t)mask + 1) * sizeof(MemoSlot));
	for (uint32_t i = 0; i <= mask; i++)
		slots[i].name = -1;
	for (uint32_t i = 0; i <= ip->mask; i++) {
		MemoSlot *s = &ip->slots[i];
		if (s->name < 0)
			continue;
		uint32_t h = memo_hash(s->chain, s->start, s->name) & mask;
		while (slots[h].name >= 0)
			h = (h + 1) & mask;
		slots[h] = *s;
	}
	free(ip->slots);
	ip->slots = slots;
	ip->mask = mask;
}

static Resolved search_chain(IncPath *ip, const Chain *c, int start, int end, const char *name)
{
	bool whole = end < 0;
	if (whole)
		end = c->ndirs;
	for (int i = start; i < end; i++) {
		int key = fs_key_join(ip->ft, c->dirs[i], name);
		int f = fs_probe(ip->ft, key);
		if (f >= 0)
			return (Resolved){f, i};
	}
	/* Kbuild's generic-y / mandatory-y: <asm/x.h> with no arch file is a
	 * one-line wrapper around <asm-generic/x.h>. */
	if (whole && c->kernel_generic && !strncmp(name, "asm/", 4)) {
		for (int g = 0; g < 2; g++) {
			int key = fs_key_join(ip->ft, ip->generic_dirs[g], name + 4);
			int f = fs_probe(ip->ft, key);
			if (f >= 0)
				return (Resolved){f, FOUND_GENERIC};
		}
	}
	return (Resolved){-1, -1};
}

/* Memoised search of dirs [start, end) of a chain (end -1: to the end,
 * with the kernel fallback).  Ranges are keyed by a negative start. */
static Resolved chain_lookup_range(IncPath *ip, int chain, int start, int end, const char *name)
{
	int mkey = end < 0 ? start : -2 - start;
	int nid = intern_cstr(ip->ft->keys, name);
	uint32_t h = memo_hash(chain, mkey, nid) & ip->mask;
	for (;; h = (h + 1) & ip->mask) {
		MemoSlot *s = &ip->slots[h];
		if (s->name < 0)
			break;
		if (s->name == nid && s->chain == chain && s->start == mkey)
			return s->r;
	}
	Resolved r = search_chain(ip, &ip->cfg->chains.v[chain], start, end, name);
	/* search_chain may intern new keys but never touches the memo */
	h = memo_hash(chain, mkey, nid) & ip->mask;
	while (ip->slots[h].name >= 0)
		h = (h + 1) & ip->mask;
	ip->slots[h] = (MemoSlot){chain, mkey, nid, r};
	if (++ip->used * 2 > ip->mask)
		memo_grow(ip);
	return r;
}

static Resolved chain_lookup(IncPath *ip, int chain, int start, const char *name)
{
	return chain_lookup_range(ip, chain, start, -1, name);
}

Resolved incpath_search_dirs(IncPath *ip, int chain, int start, int end, const char *name)
{
	if (start >= end)
		return (Resolved){-1, -1};
	return chain_lookup_range(ip, chain, start, end, name);
}

Resolved incpath_resolve(IncPath *ip, int chain, int includer, int includer_found_at,
			 const char *name, bool angled, bool next)
{
	if (!name[0])
		return (Resolved){-1, -1};
	if (name[0] == '/') {
		int f = fs_probe(ip->ft, fs_key(ip->ft, name));
		return (Resolved){f, FOUND_DIRECT};
	}
	const Chain *c = &ip->cfg->chains.v[chain];
	int start = angled ? c->quote_end : 0;
	if (next && includer_found_at >= 0) {
		start = includer_found_at + 1;
		if (angled && start < c->quote_end)
			start = c->quote_end;
	} else if (!angled && includer >= 0) {
		int key = fs_key_join(ip->ft, ip->ft->files[includer].dir, name);
		int f = fs_probe(ip->ft, key);
		if (f >= 0)
			return (Resolved){f, FOUND_INCLUDER_DIR};
	}
	return chain_lookup(ip, chain, start, name);
}

Resolved incpath_forced(IncPath *ip, int chain, int key)
{
	int f = fs_probe(ip->ft, key);
	if (f >= 0)
		return (Resolved){f, FOUND_DIRECT};
	return chain_lookup(ip, chain, 0, fs_keystr(ip->ft, key));
}

Resolved incpath_stdc_predef(IncPath *ip, int chain)
{
	const Chain *c = &ip->cfg->chains.v[chain];
	return chain_lookup(ip, chain, c->quote_end, "stdc-predef.h");
}
