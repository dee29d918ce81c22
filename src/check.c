/*
 * check.c — the findings of check.h, as every check room and every
 * output shares them: their kinds and names, making and freeing one, a
 * symbol as code writes it.  The rooms that find them stand above this
 * file, one stage of the pipeline each (check_impl.h names them), and
 * check_run.c drives them.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "check_impl.h"

static const char *const kind_names[FK_NKINDS] = {
	"unused", "replaceable", "redundant", "missing", "forward-declarable",
};

const char *check_kind_name(int kind)
{
	return kind >= 0 && kind < FK_NKINDS ? kind_names[kind] : "?";
}

void finding_init(Finding *f, int file, int kind)
{
	memset(f, 0, sizeof(*f));
	f->file = file;
	f->kind = kind;
	f->dir = -1;
	f->target = -1;
	f->sym = -1;
}

void findings_free_one(Finding *f)
{
	vec_free(&f->syms);
	vec_free(&f->via);
	vec_free(&f->add);
	free(f->condition);
	for (int k = 0; k < f->fallout.n; k++) {
		vec_free(&f->fallout.v[k].add);
		vec_free(&f->fallout.v[k].syms);
	}
	vec_free(&f->fallout);
}

void findings_free(FindingVec *v)
{
	for (int i = 0; i < v->n; i++)
		findings_free_one(&v->v[i]);
	vec_free(v);
}

void check_sym_text(const Check *ck, int sym, StrBuf *out)
{
	sb_add(out, name_str(ck, sym), (size_t)name_len(ck, sym));
}

void check_sym_list(const Check *ck, const IntVec *syms, int max, StrBuf *out)
{
	for (int i = 0; i < syms->n && i < max; i++) {
		if (i)
			sb_adds(out, ", ");
		check_sym_text(ck, syms->v[i], out);
	}
	if (syms->n > max)
		sb_addf(out, " and %d more", syms->n - max);
}

unsigned check_parse_kinds(const char *s, unsigned dflt, const char *cmd)
{
	return kind_list_parse(s, dflt, FK_NKINDS, check_kind_name, FK_FORWARD, "forward", cmd);
}
