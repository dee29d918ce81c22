/*
 * cmd_debug.c — `hdrslim lex FILE...` and `hdrslim if-eval EXPR...`: the
 * lexer's and the #if evaluator's view, printed for tests and for a user
 * who wants to know why hdrslim took a branch.  Like git's test-tool,
 * they expose internals through the real binary; `hdrslim symbols FILE`
 * prints the symbol facts (what a file provides and uses) the same way.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "lex.h"
#include "macro.h"
#include "session.h"

static const char *const kind_names[] = {
	[D_INCLUDE] = "include", [D_INCLUDE_NEXT] = "include_next", [D_DEFINE] = "define",
	[D_UNDEF] = "undef", [D_IF] = "if", [D_IFDEF] = "ifdef", [D_IFNDEF] = "ifndef",
	[D_ELIF] = "elif", [D_ELIFDEF] = "elifdef", [D_ELIFNDEF] = "elifndef", [D_ELSE] = "else",
	[D_ENDIF] = "endif", [D_PRAGMA_ONCE] = "pragma once", [D_ERROR] = "error", [D_LINE] = "line",
};

/* One line per directive: LINE KIND NAME [(ARGS)] [TEXT] [-> NEXT] */
int cmd_lex(int argc, char **argv)
{
	Options o;
	options_parse(&o, argc, argv, "lex", "");
	if (!o.args.n)
		die("lex: no FILE given (usage: hdrslim lex FILE...)");
	Session s;
	session_open(&s, &o, o.tree ? o.tree : ".", false);
	for (int i = 0; i < o.args.n; i++) {
		Unit u = session_unit_for_path(&s, o.args.v[i]);
		const Facts *f = fs_facts(&s.ft, u.file);
		if (!f)
			continue;
		fs_report_errors(&s.ft, u.file);
		printf("%s: %u lines, %u directives", session_path(&s, u.file), f->lines, f->ndirs);
		if (f->guard >= 0)
			printf(", guard %.*s", (int)f->guard_name_len, facts_strs(f) + f->guard_name_off);
		if (f->pragma_once)
			printf(", pragma once");
		printf("\n");
		const Directive *d = facts_dirs(f);
		for (uint32_t k = 0; k < f->ndirs; k++) {
			printf("%u %s", d[k].line, kind_names[d[k].kind]);
			if (d[k].name_len)
				printf(" %s", facts_name(f, &d[k]));
			if (d[k].flags & DF_FUNCLIKE)
				printf("(%s)", facts_strs(f) + d[k].args_off);
			if (d[k].text_off != d[k].name_off && d[k].text_len)
				printf(" %s", facts_text(f, &d[k]));
			if (d[k].next >= 0)
				printf(" -> %d", d[k].next);
			printf("\n");
		}
	}
	session_close(&s);
	options_free(&o);
	return session_status();
}

/* What a file provides and uses, one line each:
 *   provide LINE KIND NAME
 *   use LINE NAME [tag] [complete] [macro] [cond] [code]   */
int cmd_symbols(int argc, char **argv)
{
	Options o;
	options_parse(&o, argc, argv, "symbols", "");
	if (!o.args.n)
		die("symbols: no FILE given (usage: hdrslim symbols FILE...)");
	Session s;
	session_open(&s, &o, o.tree ? o.tree : ".", false);
	for (int i = 0; i < o.args.n; i++) {
		Unit u = session_unit_for_path(&s, o.args.v[i]);
		fs_symbols_all(&s.ft, &u.file, 1, 1);
		const Symbols *sy = s.ft.files[u.file].syms;
		if (!sy) {
			fs_facts(&s.ft, u.file); /* reports why */
			continue;
		}
		printf("%s: %u provided, %u used\n", session_path(&s, u.file), sy->nprovides, sy->nuses);
		for (uint32_t k = 0; k < sy->nprovides; k++) {
			const SymEntry *e = &sym_provides(sy)[k];
			printf("provide %u %s %s\n", e->line, sym_kind_name(e->kind), sym_name(sy, e));
		}
		for (uint32_t k = 0; k < sy->nuses; k++) {
			const SymEntry *e = &sym_uses(sy)[k];
			printf("use %u %s%s%s%s%s%s%s\n", e->line, sym_name(sy, e), e->flags & UF_TAG ? " tag" : "",
			       e->flags & UF_COMPLETE ? " complete" : "", e->flags & UF_MACRO_BODY ? " macro" : "",
			       e->flags & UF_COND ? " cond" : "", e->flags & UF_CODE ? " code" : "",
			       e->flags & UF_DECLARE ? " declare" : "");
		}
		static const char *const pragma_names[] = {
			"keep", "export", "begin_exports", "end_exports", "private", "no_include", "nested-include",
		};
		for (uint32_t k = 0; k < sy->npragmas; k++) {
			const SymEntry *e = &sym_pragmas(sy)[k];
			printf("pragma %u %s%s%s\n", e->line,
			       e->kind <= PR_NESTED ? pragma_names[e->kind] : "?", e->name_len ? " " : "",
			       e->name_len ? sym_name(sy, e) : "");
		}
	}
	session_close(&s);
	options_free(&o);
	return session_status();
}

/* Evaluates each EXPR as an #if line would be, after the configuration's
 * prelude (predefined macros in exact mode, -D/-U): prints 1, 0 or
 * unknown, or the error. */
int cmd_if_eval(int argc, char **argv)
{
	Options o;
	options_parse(&o, argc, argv, "if-eval", "");
	if (!o.args.n)
		die("if-eval: no EXPR given (usage: hdrslim if-eval [OPTIONS] EXPR...)");
	Session s;
	session_open(&s, &o, o.tree ? o.tree : ".", false);
	const Ctx *ctx = &s.cfg.ctxs.v[s.default_ctx];
	MacroTable mt;
	mt_init(&mt, s.names, !s.cfg.exact);
	mt_apply(&mt, ctx->prelude);
	int status = EXIT_OK;
	mt.line = 1; /* each EXPR is line 1 of a file of its own */
	for (int i = 0; i < o.args.n; i++) {
		const char *err = NULL;
		Tri t = mt_eval_if(&mt, o.args.v[i], strlen(o.args.v[i]), &err);
		if (err) {
			printf("error: %s\n", err);
			status = EXIT_FINDINGS;
		} else {
			printf("%s\n", t == TRI_TRUE ? "1" : t == TRI_FALSE ? "0" : "unknown");
		}
	}
	mt_free(&mt);
	session_close(&s);
	options_free(&o);
	return status;
}
