/*
 * check_pragmas.c — what users wrote about their includes: IWYU pragmas
 * (keep, export, begin_exports / end_exports, private, no_include) and
 * hdrslim's mark of an #include read inside braces, from the symbol
 * facts, and the mapping file (one "<private.h> -> <public.h>" a line, or
 * IWYU's).  From them: the include lines no finding may remove, the files
 * whose names count as their includer's own, and the header to suggest
 * in place of a private one (a system library's bits/ headers too: their
 * public face is the header outside bits/ that includes them).
 */
#include "check_pragmas.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_index.h"

bool has_pragma(const Symbols *sy, unsigned line, int kind)
{
	for (uint32_t k = 0; sy && k < sy->npragmas; k++)
		if (sym_pragmas(sy)[k].kind == kind && sym_pragmas(sy)[k].line == line)
			return true;
	return false;
}

bool exported_line(const Symbols *sy, unsigned line)
{
	if (!sy || !sy->npragmas)
		return false;
	if (has_pragma(sy, line, PR_EXPORT))
		return true;
	/* inside begin_exports ... end_exports: the nearest of the two before
	 * the line is a begin (the pragmas are not in line order) */
	const SymEntry *last = NULL;
	for (uint32_t k = 0; k < sy->npragmas; k++) {
		const SymEntry *e = &sym_pragmas(sy)[k];
		if ((e->kind == PR_BEGIN_EXPORTS || e->kind == PR_END_EXPORTS) && e->line < line &&
		    (!last || e->line > last->line))
			last = e;
	}
	return last && last->kind == PR_BEGIN_EXPORTS;
}

bool kept_line(const Symbols *sy, unsigned line)
{
	return sy && sy->npragmas &&
	       (has_pragma(sy, line, PR_KEEP) || has_pragma(sy, line, PR_NESTED) || exported_line(sy, line));
}

/* A file the run knows is there: one it read, or a .c or .h file of the
 * tree (a run about a few files reads only what it needs). */
static bool known_file(const FileTable *ft, int f)
{
	const File *fl = &ft->files[f];
	return fl->facts || (!(fl->flags & F_READ_ERROR) && fs_in_file_set(ft, f));
}

/* The file a spelled header names: "x.h" next to `from` first, else any
 * known file whose path ends in it (in the tree first, then the
 * shortest).  -1 when none. */
static int resolve_spelled(Check *ck, int from, const char *spelled, size_t n)
{
	FileTable *ft = &ck->s->ft;
	bool quoted = n >= 2 && spelled[0] == '"';
	if (n >= 2 && (spelled[0] == '"' || spelled[0] == '<')) {
		spelled++;
		n -= 2;
	}
	char *name = xasprintf("%.*s", (int)n, spelled);
	int best = -1;
	if (from >= 0 && quoted) {
		char *dir = path_dirname(fs_keystr(ft, ft->files[from].key));
		char *joined = strcmp(dir, ".") ? xasprintf("%s/%s", dir, name) : xstrdup(name);
		for (int f = 0; f < ft->nfiles && best < 0; f++)
			if (known_file(ft, f) && !strcmp(fs_keystr(ft, ft->files[f].key), joined))
				best = f;
		free(dir);
		free(joined);
	}
	size_t best_len = 0;
	bool best_in_tree = false;
	if (best < 0) {
		for (int f = 0; f < ft->nfiles; f++) {
			if (!known_file(ft, f))
				continue;
			const char *k = fs_keystr(ft, ft->files[f].key);
			size_t kl = strlen(k);
			if (kl < n || strcmp(k + kl - n, name) || (kl > n && k[kl - n - 1] != '/'))
				continue;
			bool in_tree = ft->files[f].flags & F_IN_TREE;
			if (best < 0 || (in_tree && !best_in_tree) || (in_tree == best_in_tree && kl < best_len)) {
				best = f;
				best_len = kl;
				best_in_tree = in_tree;
			}
		}
	}
	free(name);
	return best;
}

/* Whether a spelled header names file f (by path suffix). */
static bool spelled_is(Check *ck, const char *spelled, size_t n, int f)
{
	if (n >= 2 && (spelled[0] == '"' || spelled[0] == '<')) {
		spelled++;
		n -= 2;
	}
	const char *k = fs_keystr(&ck->s->ft, ck->s->ft.files[f].key);
	size_t kl = strlen(k);
	return kl >= n && !memcmp(k + kl - n, spelled, n) && (kl == n || k[kl - n - 1] == '/');
}

int public_home(const Check *ck, int from, int target)
{
	for (int i = 0; i < 8 && target >= 0 && ck->public_of[target] >= 0 && ck->public_of[target] != from; i++)
		target = ck->public_of[target];
	return target;
}

bool no_include(Check *ck, int file, int target)
{
	const Symbols *sy = syms_of(ck, file);
	for (uint32_t k = 0; sy && k < sy->npragmas; k++) {
		const SymEntry *e = &sym_pragmas(sy)[k];
		if (e->kind == PR_NO_INCLUDE && spelled_is(ck, sym_name(sy, e), e->name_len, target))
			return true;
	}
	return false;
}

void read_pragmas(Check *ck)
{
	FileTable *ft = &ck->s->ft;
	ck->public_of = xmalloc(((size_t)ft->nfiles + 1) * sizeof(int));
	for (int f = 0; f < ft->nfiles; f++)
		ck->public_of[f] = -1;
	for (int f = 0; f < ft->nfiles; f++) {
		const Symbols *sy = ft->files[f].syms;
		for (uint32_t k = 0; sy && k < sy->npragmas; k++) {
			const SymEntry *e = &sym_pragmas(sy)[k];
			if (e->kind == PR_EXPORT || e->kind == PR_BEGIN_EXPORTS)
				ck->any_export = true;
			if (e->kind == PR_PRIVATE && e->name_len) {
				int pub = resolve_spelled(ck, f, sym_name(sy, e), e->name_len);
				if (pub >= 0 && pub != f)
					ck->public_of[f] = pub;
			}
		}
	}
	/* A system library's bits/ headers are its own (glibc's say "never
	 * include directly", or only work after the public one): their
	 * public face is the header outside bits/ that includes them, maybe
	 * through other bits/ headers. */
	build_rev(ck);
	for (int f = 0; f < ft->nfiles; f++) {
		if ((ft->files[f].flags & F_IN_TREE) || ck->public_of[f] >= 0 || !strstr(fs_keystr(ft, ft->files[f].key), "/bits/"))
			continue;
		/* the nearest includer outside bits/, up through bits/ ones */
		IntVec queue = {0};
		vec_push(&queue, f);
		for (int qi = 0; qi < queue.n && qi < 64 && ck->public_of[f] < 0; qi++)
			for (int k = ck->rev_off[queue.v[qi]]; k < ck->rev_off[queue.v[qi] + 1]; k++) {
				int by = ck->rev[k];
				if (by == f || (ft->files[by].flags & F_IN_TREE))
					continue;
				if (!strstr(fs_keystr(ft, ft->files[by].key), "/bits/")) {
					ck->public_of[f] = by;
					break;
				}
				vec_push(&queue, by);
			}
		vec_free(&queue);
	}
}

/* The spelled headers of one mapping line, at most two: "<a.h> -> <b.h>"
 * or, in an IWYU mapping, the quoted strings of
 * { include: ["<a.h>", "private", "\"b.h\"", "public"] } that are headers. */
static int mapping_headers(char *line, char *hs[2])
{
	int nh = 0;
	bool iwyu = strstr(line, "include:") != NULL;
	for (char *p = line; *p && nh < 2; p++) {
		if (iwyu) {
			if (*p != '"')
				continue;
			/* a JSON string: unescape in place */
			char *w = p + 1, *r = p + 1;
			while (*r && *r != '"') {
				if (*r == '\\' && r[1])
					r++;
				*w++ = *r++;
			}
			if (!*r)
				return -1;
			*w = 0;
			if ((p[1] == '<' || p[1] == '"') && w - p > 3)
				hs[nh++] = p + 1;
			p = r;
		} else if (*p == '<' || *p == '"') {
			char *q = strchr(p + 1, *p == '<' ? '>' : '"');
			if (!q)
				return -1;
			char end = q[1];
			q[1] = 0;
			hs[nh++] = p;
			if (!end)
				break;
			p = q + 1;
		} else if (*p == '#') {
			break; /* a comment */
		}
	}
	return nh;
}

void check_load_mapping(Check *ck, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		die("%s: cannot read the mapping file: %s", path, strerror(errno));
	FileTable *ft = &ck->s->ft;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	while (getline(&line, &cap, fp) >= 0) {
		lineno++;
		if (memchr(line, 0, strlen(line) + 1) != line + strlen(line))
			die("%s:%d: NUL byte in the mapping file", path, lineno);
		char *t = line + strspn(line, " \t\r\n[]{},");
		if (!*t || *t == '#' || !strncmp(t, "//", 2))
			continue;
		char *hs[2];
		if (mapping_headers(line, hs) != 2)
			die("%s:%d: expected '<private.h> -> <public.h>' or an IWYU include mapping", path, lineno);
		int pub = resolve_spelled(ck, -1, hs[1], strlen(hs[1]));
		if (pub < 0)
			continue; /* not in this tree */
		for (int f = 0; f < ft->nfiles; f++)
			if (known_file(ft, f) && f != pub && spelled_is(ck, hs[0], strlen(hs[0]), f))
				ck->public_of[f] = pub;
	}
	free(line);
	fclose(fp);
}
