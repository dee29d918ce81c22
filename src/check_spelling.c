/*
 * check_spelling.c — how an #include is written: as the file wrote it
 * (check_written), and how a suggested one should be spelled from its
 * includer (check_spelling): the way the tree's own code writes it, <x.h>
 * along the search chain, "x.h" next to the includer.  For output only;
 * check_spelling_prepare makes it safe on many threads.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "check_impl.h"

char *check_written(Check *ck, int file, int dir)
{
	const Facts *f = ck->s->ft.files[file].facts;
	const Directive *d = &facts_dirs(f)[dir];
	const char *name = facts_name(f, d);
	if (d->flags & DF_ANGLED)
		return xasprintf("<%s>", name);
	if (d->flags & DF_QUOTED)
		return xasprintf("\"%s\"", name);
	return xasprintf("%.*s", (int)d->text_len, facts_text(f, d));
}

/* The context a file's includes are spelled in: memoized by
 * check_spelling_prepare, so that spelling may run on many threads. */
static int spell_ctx(Check *ck, int from)
{
	if (from < ck->nspell_ctx && ck->spell_ctx[from] >= 0)
		return ck->spell_ctx[from];
	return session_ctx_for_file(ck->s, from); /* may grow cfg.ctxs */
}

void check_spelling_prepare(Check *ck, const FindingVec *fv)
{
	int n = ck->s->ft.nfiles;
	ck->spell_ctx = xrealloc(ck->spell_ctx, ((size_t)n + 1) * sizeof(int));
	for (int i = ck->nspell_ctx; i <= n; i++)
		ck->spell_ctx[i] = -1;
	ck->nspell_ctx = n;
	for (int i = 0; i < fv->n; i++) {
		const Finding *f = &fv->v[i];
		ck->spell_ctx[f->file] = spell_ctx(ck, f->file);
		for (int k = 0; k < f->fallout.n; k++)
			ck->spell_ctx[f->fallout.v[k].file] = spell_ctx(ck, f->fallout.v[k].file);
	}
}

/* Whether path lies under an angle-bracket directory of from's chain. */
static bool on_chain(Check *ck, int from, const char *tk)
{
	Session *s = ck->s;
	int from_ctx = spell_ctx(ck, from);
	const Chain *ch = &s->cfg.chains.v[s->cfg.ctxs.v[from_ctx].chain];
	for (int i = ch->quote_end; i < ch->ndirs; i++) {
		const char *dk = fs_keystr(&s->ft, ch->dirs[i]);
		size_t dl = strlen(dk);
		if (strcmp(dk, ".") && !strncmp(tk, dk, dl) && tk[dl] == '/')
			return true;
	}
	return false;
}

char *check_spelling(Check *ck, int from, int target)
{
	Session *s = ck->s;
	const char *tk = fs_keystr(&s->ft, s->ft.files[target].key);
	const char *fk = fs_keystr(&s->ft, s->ft.files[from].key);
	/* a header under an include directory of the chain, included from a
	 * file under the same directory, is spelled from there, as the
	 * kernel does: <linux/sched/types.h> in <linux/sched/cputime.h>.
	 * Not when that directory is the includer's own: Kbuild puts each
	 * object's source directory on the chain of an O= build, and
	 * mm/mmap.c spells mm/vma.h "vma.h", which resolves in a build in
	 * the source tree too */
	char *fdir = path_dirname(fk);
	size_t fl = strlen(fdir);
	int from_ctx = spell_ctx(ck, from);
	const Chain *ch0 = &s->cfg.chains.v[s->cfg.ctxs.v[from_ctx].chain];
	for (int i = ch0->quote_end; i < ch0->ndirs; i++) {
		const char *dk = fs_keystr(&s->ft, ch0->dirs[i]);
		size_t dl = strlen(dk);
		if (!strcmp(dk, ".") || !strcmp(dk, fdir) || strncmp(tk, dk, dl) || tk[dl] != '/' ||
		    strncmp(fk, dk, dl) || fk[dl] != '/')
			continue;
		free(fdir);
		return xasprintf("<%s>", tk + dl + 1);
	}
	/* next to the includer */
	if (!strcmp(fdir, ".") && !strchr(tk, '/')) {
		free(fdir);
		return xasprintf("\"%s\"", tk);
	}
	/* (in a subdirectory, a header on the search chain is spelled from
	 * there: <linux/sched/types.h>, not "sched/types.h") */
	if (strcmp(fdir, ".") && !strncmp(tk, fdir, fl) && tk[fl] == '/' &&
	    (!strchr(tk + fl + 1, '/') || !on_chain(ck, from, tk))) {
		char *r = xasprintf("\"%s\"", tk + fl + 1);
		free(fdir);
		return r;
	}
	/* along the search chain: the first directory that holds it */
	from_ctx = spell_ctx(ck, from);
	const Chain *ch = &s->cfg.chains.v[s->cfg.ctxs.v[from_ctx].chain];
	for (int i = 0; i < ch->ndirs; i++) {
		const char *dk = fs_keystr(&s->ft, ch->dirs[i]);
		size_t dl = strlen(dk);
		if (!strcmp(dk, ".") || strncmp(tk, dk, dl) || tk[dl] != '/')
			continue;
		char *r = xasprintf(i < ch->quote_end ? "\"%s\"" : "<%s>", tk + dl + 1);
		free(fdir);
		return r;
	}
	/* another architecture's header: as code everywhere spells it, for
	 * the includer's own architecture to resolve (<asm/pkeys.h>) */
	const char *inc = strstr(tk, "/include/");
	if (!strncmp(tk, "arch/", 5) && inc) {
		free(fdir);
		return xasprintf("<%s>", inc + 9);
	}
	/* relative to the includer's directory */
	StrBuf sb = {0};
	sb_addc(&sb, '"');
	if (strcmp(fdir, ".")) {
		for (const char *p = fdir; *p; p++)
			if (*p == '/')
				sb_adds(&sb, "../");
		sb_adds(&sb, "../");
	}
	sb_adds(&sb, tk);
	sb_addc(&sb, '"');
	free(fdir);
	return sb.buf;
}
