/*
 * findings.c — check's findings as text and as JSON (findings.h).  The
 * messages name the include as written and the suggested includes as the
 * file should spell them (check_spelling).
 */
#include <stdio.h>
#include <stdlib.h>

#include "findings.h"

static void via_text(Session *s, const IntVec *via, StrBuf *sb)
{
	for (int i = 0; i + 1 < via->n; i += 2) {
		if (i)
			sb_adds(sb, " -> ");
		sb_adds(sb, session_path(s, via->v[i]));
		if (via->v[i + 1])
			sb_addf(sb, ":%d", via->v[i + 1]);
	}
}

void finding_headline(Session *s, Check *ck, const Finding *f, StrBuf *out)
{
	const char *path = session_path(s, f->file);
	char *inc = f->dir >= 0 ? check_written(ck, f->file, f->dir) : NULL;
	switch (f->kind) {
	case FK_UNUSED:
		sb_addf(out, "%s:%u: unused: #include %s: nothing used from it or from what only it brings in",
			path, f->line, inc);
		break;
	case FK_REPLACEABLE:
		sb_addf(out, "%s:%u: replaceable: #include %s: only what it brings in is used; include ",
			path, f->line, inc);
		for (int k = 0; k < f->add.n; k++) {
			char *sp = check_spelling(ck, f->file, f->add.v[k]);
			sb_addf(out, "%s%s", k ? ", " : "", sp);
			free(sp);
		}
		sb_adds(out, " instead");
		break;
	case FK_REDUNDANT:
		sb_addf(out, "%s:%u: redundant: #include %s: already included through ", path, f->line, inc);
		if (f->via.n >= 4)
			sb_adds(out, session_path(s, f->via.v[2] >= 0 && f->via.n > 4 ? f->via.v[2] : f->via.v[0]));
		break;
	case FK_MISSING: {
		StrBuf name = {0};
		check_sym_text(ck, f->sym, &name);
		char *sp = check_spelling(ck, f->file, f->target);
		sb_addf(out, "%s:%u: missing: %s: its home %s is included only indirectly; include it",
			path, f->line, sb_str(&name), sp);
		free(sp);
		free(name.buf);
		break;
	}
	case FK_FORWARD:
		sb_addf(out, "%s:%u: forward-declarable: #include %s: only pointers to ", path, f->line, inc);
		check_sym_list(ck, &f->syms, 8, out);
		sb_adds(out, " are used; declare instead: ");
		for (int k = 0; k < f->syms.n; k++) {
			sb_adds(out, k ? " " : "");
			check_sym_text(ck, f->syms.v[k], out);
			sb_addc(out, ';');
		}
		break;
	default:
		sb_addf(out, "%s:%u: %s: #include %s", path, f->line, check_kind_name(f->kind), inc ? inc : "");
	}
	free(inc);
}

void finding_notes(Session *s, Check *ck, const Finding *f, int max_fallout, StrBuf *out)
{
	const char *path = session_path(s, f->file);
	if (f->syms.n && f->kind != FK_MISSING && f->kind != FK_FORWARD) {
		sb_addf(out, "%s:%u: note: uses ", path, f->line);
		check_sym_list(ck, &f->syms, 8, out);
		sb_addc(out, '\n');
	}
	if (f->via.n >= 4) {
		sb_addf(out, "%s:%u: note: via ", path, f->line);
		via_text(s, &f->via, out);
		sb_addc(out, '\n');
	}
	if (f->condition) {
		sb_addf(out, "%s:%u: note: under #if %s\n", path, f->line, f->condition);
	}
	for (int k = 0; k < f->fallout.n && k < max_fallout; k++) {
		const Fallout *fo = &f->fallout.v[k];
		sb_addf(out, "%s:%u: note: fallout: %s uses ", path, f->line, session_path(s, fo->file));
		check_sym_list(ck, &fo->syms, 4, out);
		sb_adds(out, ": include ");
		for (int a = 0; a < fo->add.n; a++) {
			char *sp = check_spelling(ck, fo->file, fo->add.v[a]);
			sb_addf(out, "%s%s", a ? ", " : "", sp);
			free(sp);
		}
		sb_addc(out, '\n');
	}
	if (f->fallout.n > max_fallout)
		sb_addf(out, "%s:%u: note: fallout: %d more files\n", path, f->line, f->fallout.n - max_fallout);
}

static void json_spelling(StrBuf *sb, Check *ck, int from, int target)
{
	char *sp = check_spelling(ck, from, target);
	json_string(sb, sp);
	free(sp);
}

static void json_syms(StrBuf *sb, Check *ck, const IntVec *syms)
{
	sb_addc(sb, '[');
	for (int k = 0; k < syms->n; k++) {
		StrBuf name = {0};
		check_sym_text(ck, syms->v[k], &name);
		if (k)
			sb_adds(sb, ", ");
		json_string(sb, sb_str(&name));
		free(name.buf);
	}
	sb_addc(sb, ']');
}

/* One finding as a JSON object, after a separator unless it is the first. */
void finding_json(StrBuf *sb, Session *s, Check *ck, const Finding *f, bool first)
{
	char *inc = f->dir >= 0 ? check_written(ck, f->file, f->dir) : NULL;
	sb_adds(sb, first ? "\n {" : ",\n {");
	sb_adds(sb, "\"file\": ");
	json_string(sb, session_path(s, f->file));
	sb_addf(sb, ", \"line\": %u, \"include\": ", f->line);
	if (inc)
		json_string(sb, inc);
	else
		sb_adds(sb, "null");
	sb_adds(sb, ", \"kind\": ");
	json_string(sb, check_kind_name(f->kind));
	sb_adds(sb, ", \"symbols\": ");
	json_syms(sb, ck, &f->syms);
	sb_adds(sb, ", \"via\": [");
	for (int k = 0; k + 1 < f->via.n; k += 2) {
		StrBuf step = {0};
		sb_adds(&step, session_path(s, f->via.v[k]));
		if (f->via.v[k + 1])
			sb_addf(&step, ":%d", f->via.v[k + 1]);
		if (k)
			sb_adds(sb, ", ");
		json_string(sb, sb_str(&step));
		free(step.buf);
	}
	sb_adds(sb, "], \"condition\": ");
	if (f->condition)
		json_string(sb, f->condition);
	else
		sb_adds(sb, "null");
	sb_adds(sb, ", \"suggestion\": {\"remove\": ");
	if (inc && f->kind != FK_MISSING)
		json_string(sb, inc);
	else
		sb_adds(sb, "null");
	sb_adds(sb, ", \"add\": [");
	for (int k = 0; k < f->add.n; k++) {
		if (k)
			sb_adds(sb, ", ");
		json_spelling(sb, ck, f->file, f->add.v[k]);
	}
	/* a forward-declarable include is replaced by the declarations */
	for (int k = 0; f->kind == FK_FORWARD && k < f->syms.n; k++) {
		StrBuf d = {0};
		check_sym_text(ck, f->syms.v[k], &d);
		sb_adds(&d, ";");
		if (k || f->add.n)
			sb_adds(sb, ", ");
		json_string(sb, sb_str(&d));
		free(d.buf);
	}
	sb_adds(sb, "], \"declare\": [");
	for (int k = 0; f->kind == FK_FORWARD && k < f->syms.n; k++) {
		StrBuf d = {0};
		check_sym_text(ck, f->syms.v[k], &d);
		sb_adds(&d, ";");
		if (k)
			sb_adds(sb, ", ");
		json_string(sb, sb_str(&d));
		free(d.buf);
	}
	sb_adds(sb, "]}, \"fallout\": [");
	for (int k = 0; k < f->fallout.n; k++) {
		const Fallout *fo = &f->fallout.v[k];
		sb_adds(sb, k ? ", {\"file\": " : "{\"file\": ");
		json_string(sb, session_path(s, fo->file));
		sb_adds(sb, ", \"symbols\": ");
		json_syms(sb, ck, &fo->syms);
		sb_adds(sb, ", \"add\": [");
		for (int a = 0; a < fo->add.n; a++) {
			if (a)
				sb_adds(sb, ", ");
			json_spelling(sb, ck, fo->file, fo->add.v[a]);
		}
		sb_adds(sb, "]}");
	}
	sb_adds(sb, "]}");
	free(inc);
}

