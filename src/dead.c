/*
 * dead.c — the findings of dead.h.
 *
 * One pass over the symbol facts of every C file of the tree counts, for
 * each name the asked headers declare, which files use it, which files
 * provide it and whether a seed or a `##` fragment could make it.  The
 * rest reads text: a header's own tokens decide whether a name it uses is
 * used beyond its own declarations (a struct pointing to itself is not a
 * use), whether a forward declaration is referred to after it, and what a
 * wrapper's body is; the tokens of the users' files give the call sites.
 * The tokenizer here is deliberately small: identifiers, numbers,
 * strings and punctuators, with comments dropped and directive lines
 * marked, which is all these questions need.
 */
#include "dead.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "decl.h"
#include "fs.h"
#include "intern.h"

/* ---------------------------------------------------------------- tokens */

enum { TK_IDENT, TK_NUM, TK_PUNCT, TK_STR };
enum { LF_TOK = 1, LF_COMMENT = 2 };

typedef struct {
	uint32_t off, len, line;
	uint8_t kind;
	bool dir;        /* part of a preprocessor directive */
	bool bol;        /* the first token of its line */
	int32_t hash_at; /* in a directive: index of its '#' token */
} Tok;

typedef struct {
	const char *s;
	size_t n;
	VEC(Tok) t;
	int nlines;
	uint8_t *lf; /* by line, 1-based: LF_TOK | LF_COMMENT */
} Toks;

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '$';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static void tokenize(const char *s, size_t n, Toks *T)
{
	memset(T, 0, sizeof(*T));
	T->s = s;
	T->n = n;
	int lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	T->nlines = lines;
	T->lf = xcalloc((size_t)lines + 2, 1);
	size_t i = 0;
	uint32_t line = 1;
	bool bol = true, in_dir = false;
	int32_t hash_at = -1;
	while (i < n) {
		char c = s[i];
		char c1 = i + 1 < n ? s[i + 1] : 0;
		if (c == '\n') {
			line++;
			bol = true;
			in_dir = false;
			i++;
			continue;
		}
		if (c == '\\' && (c1 == '\n' || (c1 == '\r' && i + 2 < n && s[i + 2] == '\n'))) {
			i += c1 == '\n' ? 2 : 3;
			line++;
			continue;
		}
		if (isspace((unsigned char)c)) {
			i++;
			continue;
		}
		if (c == '/' && c1 == '*') {
			T->lf[line] |= LF_COMMENT;
			i += 2;
			while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
				if (s[i] == '\n')
					T->lf[++line] |= LF_COMMENT;
				i++;
			}
			i = i + 2 < n ? i + 2 : n;
			continue;
		}
		if (c == '/' && c1 == '/') {
			T->lf[line] |= LF_COMMENT;
			while (i < n && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
					T->lf[++line] |= LF_COMMENT;
					i++;
				}
				i++;
			}
			continue;
		}
		Tok tk = {.off = (uint32_t)i, .line = line, .bol = bol, .dir = in_dir, .hash_at = -1};
		if (c == '#' && bol && !in_dir) {
			in_dir = true;
			tk.dir = true;
			hash_at = T->t.n;
		}
		if (in_dir)
			tk.hash_at = hash_at;
		size_t j = i + 1;
		if (ident_start(c)) {
			while (j < n && ident_char(s[j]))
				j++;
			tk.kind = TK_IDENT;
		} else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)c1))) {
			while (j < n && (ident_char(s[j]) || s[j] == '.' ||
					 ((s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1]))))
				j++;
			tk.kind = TK_NUM;
		} else if (c == '"' || c == '\'') {
			/* a literal ends at its quote or, unterminated (an
			 * apostrophe in an assembly comment), at the line end */
			while (j < n && s[j] != c && s[j] != '\n') {
				if (s[j] == '\\' && j + 1 < n && s[j + 1] != '\n')
					j++;
				j++;
			}
			if (j < n && s[j] == c)
				j++;
			tk.kind = TK_STR;
		} else {
			static const char *const two[] = {"->", "##", "++", "--", "<<", ">>", "&&", "||",
							  "==", "!=", "<=", ">=", NULL};
			tk.kind = TK_PUNCT;
			if (c == '.' && c1 == '.' && i + 2 < n && s[i + 2] == '.')
				j = i + 3;
			else
				for (int k = 0; two[k]; k++)
					if (c == two[k][0] && c1 == two[k][1])
						j = i + 2;
		}
		tk.len = (uint32_t)(j - i);
		T->lf[line] |= LF_TOK;
		vec_push(&T->t, tk);
		bol = false;
		i = j;
	}
}

static void toks_free(Toks *T)
{
	vec_free(&T->t);
	free(T->lf);
}

static bool tok_is(const Toks *T, int k, const char *str)
{
	if (k < 0 || k >= T->t.n)
		return false;
	size_t n = strlen(str);
	return T->t.v[k].len == n && !memcmp(T->s + T->t.v[k].off, str, n);
}

static bool tok_eq(const Toks *T, int k, const char *name, size_t n)
{
	return k >= 0 && k < T->t.n && T->t.v[k].kind == TK_IDENT && T->t.v[k].len == n &&
	       !memcmp(T->s + T->t.v[k].off, name, n);
}

static char *tok_dup(const Toks *T, int k)
{
	return xstrndup(T->s + T->t.v[k].off, T->t.v[k].len);
}

/* The first token of line `line` (binary search), or T->t.n. */
static int first_on_line(const Toks *T, uint32_t line)
{
	int lo = 0, hi = T->t.n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (T->t.v[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The token of `name` on `line`, in a directive or not; -1 if none. */
static int find_name(const Toks *T, uint32_t line, const char *name, size_t n, bool in_dir)
{
	for (int k = first_on_line(T, line); k < T->t.n && T->t.v[k].line == line; k++)
		if (T->t.v[k].dir == in_dir && tok_eq(T, k, name, n))
			return k;
	return -1;
}

/* Index of the token closing the bracket opened at k, or -1. */
static int close_of(const Toks *T, int k)
{
	int depth = 0;
	for (int i = k; i < T->t.n; i++) {
		if (T->t.v[i].dir != T->t.v[k].dir)
			continue;
		if (T->t.v[i].kind != TK_PUNCT || T->t.v[i].len != 1)
			continue;
		char c = T->s[T->t.v[i].off];
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}') {
			if (--depth == 0)
				return i;
			if (depth < 0)
				return -1;
		}
	}
	return -1;
}

/* The last token of the directive that token k is part of. */
static int directive_end(const Toks *T, int k)
{
	int h = T->t.v[k].hash_at;
	while (k + 1 < T->t.n && T->t.v[k + 1].dir && T->t.v[k + 1].hash_at == h)
		k++;
	return k;
}

/* ---------------------------------------------------------------- file-scope declarations */

/* Top-level declarations as token ranges (directives skipped): each runs
 * to its `;` at depth zero or to the `}` closing a function body.  Not
 * reliable when braces do not balance (an #if branch opening a body the
 * #else opens too): the callers then keep every name. */
typedef struct {
	int *region_of; /* by token: index of its declaration, -1 for directives */
	VEC(int) start, end;
	bool reliable;
} Regions;

static bool starts_declaration(const Toks *T, int k)
{
	static const char *const kw[] = {"static", "extern", "typedef", "struct", "union", "enum", "void",
					 "int", "char", "unsigned", "signed", "long", "short", "bool",
					 "inline", NULL};
	for (int i = 0; kw[i]; i++)
		if (tok_is(T, k, kw[i]))
			return true;
	return false;
}

static void regions_build(const Toks *T, Regions *R)
{
	memset(R, 0, sizeof(*R));
	R->region_of = xmalloc(((size_t)T->t.n + 1) * sizeof(int));
	R->reliable = true;
	int depth = 0, start = -1, prev = -1, prev2 = -1;
	bool eq = false, fbody = false;
	for (int k = 0; k < T->t.n; k++) {
		R->region_of[k] = -1;
		if (T->t.v[k].dir)
			continue;
		if (start < 0) {
			start = k;
			eq = fbody = false;
		}
		R->region_of[k] = R->start.n;
		bool end = false;
		const Tok *t = &T->t.v[k];
		if (t->kind == TK_PUNCT && t->len == 1) {
			char c = T->s[t->off];
			if (c == '(' || c == '[') {
				depth++;
			} else if (c == ')' || c == ']') {
				depth--;
			} else if (c == '{') {
				if (depth == 0)
					fbody = !eq && (tok_is(T, prev, ")") ||
							(prev >= 0 && T->t.v[prev].kind == TK_IDENT && tok_is(T, prev2, ")")));
				depth++;
			} else if (c == '}') {
				depth--;
				if (depth == 0) {
					int nx = k + 1;
					while (nx < T->t.n && T->t.v[nx].dir)
						nx++;
					end = fbody || nx >= T->t.n || starts_declaration(T, nx) ||
					      (nx > k + 1 && !tok_is(T, nx, ";"));
				}
			} else if (c == '=' && depth == 0) {
				eq = true;
			} else if (c == ';' && depth == 0) {
				end = true;
			}
		}
		if (depth < 0) {
			R->reliable = false;
			depth = 0;
		}
		if (end) {
			vec_push(&R->start, start);
			vec_push(&R->end, k);
			start = -1;
		}
		prev2 = prev;
		prev = k;
	}
	if (start >= 0) {
		vec_push(&R->start, start);
		vec_push(&R->end, prev);
	}
	if (depth != 0)
		R->reliable = false;
}

static void regions_free(Regions *R)
{
	free(R->region_of);
	vec_free(&R->start);
	vec_free(&R->end);
}

/* A header read once, with its tokens and declarations. */
typedef struct {
	int file;
	char *text;
	size_t len;
	Toks T;
	Regions R;
	bool ok;
} Text;

static void text_open(Session *s, int file, Text *x)
{
	memset(x, 0, sizeof(*x));
	x->file = file;
	x->text = fs_read(&s->ft, file, &x->len);
	if (!x->text)
		return;
	tokenize(x->text, x->len, &x->T);
	regions_build(&x->T, &x->R);
	x->ok = true;
}

static void text_close(Text *x)
{
	if (x->ok) {
		toks_free(&x->T);
		regions_free(&x->R);
	}
	free(x->text);
	memset(x, 0, sizeof(*x));
}

/* The tokens a provide spans: a macro's whole #define, an enum
 * constant's own name, else its whole file-scope declaration.  False when
 * the text does not show it where the facts say. */
static bool provide_extent(const Text *x, const Symbols *sy, const SymEntry *p, int *a, int *b)
{
	const char *name = sym_name(sy, p);
	bool macro = p->kind == SK_MACRO;
	int k = find_name(&x->T, p->line, name, p->name_len, macro);
	if (k < 0)
		return false;
	if (macro) {
		*a = x->T.t.v[k].hash_at;
		*b = directive_end(&x->T, k);
	} else if (p->kind == SK_ENUM_CONST) {
		*a = *b = k;
	} else {
		int r = x->R.region_of[k];
		if (r < 0)
			return false;
		*a = x->R.start.v[r];
		*b = x->R.end.v[r];
	}
	return true;
}

/* ---------------------------------------------------------------- conditions */

/* ---------------------------------------------------------------- the index */

/* Per candidate name (an id of Index.names). */
typedef struct {
	int user1;      /* the first file using it, -1 none */
	bool multi;     /* a second file uses it too */
	int provides;   /* provides of the name anywhere (seeds aside) */
	int def_file;   /* a .c file defining it, -1 none */
	uint32_t def_line;
	int wrap;       /* index into Index.wusers for a wrapper candidate, -1 */
	int raw_users;  /* non-C files naming it */
} NameInfo;

typedef struct {
	Session *s;
	Interner *names;   /* what the asked headers declare */
	NameInfo *info;
	Interner *seeds, *prefixes, *suffixes;
	VEC(IntVec) wusers; /* C files using a wrapper candidate */
	IntVec cfiles;      /* every C file of the tree */
	IntVec rawfiles;    /* the other files that name C symbols */
} Index;

static bool is_c_file(const char *k)
{
	return ends_with(k, ".c") || ends_with(k, ".h");
}

/* Files that name C symbols without being C: assembly, linker scripts,
 * syscall tables, device trees, Rust, included fragments. */
static bool is_raw_file(const char *k)
{
	static const char *const ext[] = {".S", ".s", ".lds", ".tbl", ".dts", ".dtsi", ".rs", ".inc", NULL};
	for (int i = 0; ext[i]; i++)
		if (ends_with(k, ext[i]))
			return true;
	return false;
}

static void add_fragments(Index *ix, const Facts *f, const Directive *d)
{
	const char *body = facts_text(f, d);
	if (!memmem(body, d->text_len, "##", 2))
		return;
	Toks P, B;
	tokenize(facts_strs(f) + d->args_off, d->args_len, &P);
	tokenize(body, d->text_len, &B);
	for (int k = 0; k < B.t.n; k++) {
		if (!tok_is(&B, k, "##"))
			continue;
		for (int side = -1; side <= 1; side += 2) {
			int j = k + side;
			if (j < 0 || j >= B.t.n || B.t.v[j].kind != TK_IDENT || tok_is(&B, j, "__VA_ARGS__"))
				continue;
			bool param = false;
			for (int p = 0; p < P.t.n && !param; p++)
				param = P.t.v[p].kind == TK_IDENT && P.t.v[p].len == B.t.v[j].len &&
					!memcmp(P.s + P.t.v[p].off, B.s + B.t.v[j].off, B.t.v[j].len);
			if (!param)
				intern(side < 0 ? ix->prefixes : ix->suffixes, B.s + B.t.v[j].off, B.t.v[j].len);
		}
	}
	toks_free(&P);
	toks_free(&B);
}

static void note_user(NameInfo *ni, int file)
{
	if (ni->user1 < 0)
		ni->user1 = file;
	else if (ni->user1 != file)
		ni->multi = true;
}

/* One pass over every C file's facts. */
static void index_scan(Index *ix)
{
	Session *s = ix->s;
	for (int n = 0; n < ix->cfiles.n; n++) {
		int file = ix->cfiles.v[n];
		const Symbols *sy = s->ft.files[file].syms;
		const Facts *f = s->ft.files[file].facts;
		if (!sy)
			continue;
		bool is_c = ends_with(fs_keystr(&s->ft, s->ft.files[file].key), ".c");
		for (uint32_t k = 0; k < sy->nuses; k++) {
			const SymEntry *u = &sym_uses(sy)[k];
			int id = intern_find(ix->names, sym_name(sy, u), u->name_len);
			if (id < 0)
				continue;
			NameInfo *ni = &ix->info[id];
			note_user(ni, file);
			if (ni->wrap >= 0) {
				IntVec *w = &ix->wusers.v[ni->wrap];
				if (!w->n || w->v[w->n - 1] != file)
					vec_push(w, file);
			}
		}
		for (uint32_t k = 0; k < sy->nprovides; k++) {
			const SymEntry *p = &sym_provides(sy)[k];
			if (p->kind == SK_SEED) {
				intern(ix->seeds, sym_name(sy, p), p->name_len);
				continue;
			}
			int id = intern_find(ix->names, sym_name(sy, p), p->name_len);
			if (id < 0)
				continue;
			NameInfo *ni = &ix->info[id];
			ni->provides++;
			if (is_c && ni->def_file < 0 && (p->kind == SK_FUNC_DEF || p->kind == SK_VAR_DEF)) {
				ni->def_file = file;
				ni->def_line = p->line;
			}
		}
		for (uint32_t k = 0; f && k < f->ndirs; k++) {
			const Directive *d = &facts_dirs(f)[k];
			if (d->kind == D_DEFINE && d->text_len >= 2)
				add_fragments(ix, f, d);
		}
	}
}

/* The non-C files: every identifier in them is a use. */
static void index_scan_raw(Index *ix)
{
	for (int n = 0; n < ix->rawfiles.n; n++) {
		size_t len;
		char *text = fs_read(&ix->s->ft, ix->rawfiles.v[n], &len);
		if (!text)
			continue;
		for (size_t i = 0; i < len;) {
			if (!ident_start(text[i]) || (i && ident_char(text[i - 1]))) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < len && ident_char(text[j]))
				j++;
			int id = intern_find(ix->names, text + i, j - i);
			if (id >= 0) {
				note_user(&ix->info[id], ix->rawfiles.v[n]);
				ix->info[id].raw_users++;
			}
			i = j;
		}
		free(text);
	}
}

/* A fragment made of underscores only glues two arguments together
 * (a##_##b); it says nothing about the names made. */
static bool glue_only(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != '_')
			return false;
	return true;
}

/* Some file-scope macro call names it (EXPORT_SYMBOL(name),
 * core_initcall(name): a seed), or a `##` in some macro could glue it
 * together: it begins with a fragment pasted in front of an argument
 * (trace_##name) or ends with one pasted after it (name##_show), cut at
 * a '_' of the name ("sys" in sys##name makes sys_open). */
static bool maybe_pasted(const Index *ix, const char *name, int len)
{
	if (intern_find(ix->seeds, name, (size_t)len) >= 0)
		return true;
	for (int l = 1; l < len; l++) {
		if ((name[l - 1] == '_' || name[l] == '_') && !glue_only(name, (size_t)l) &&
		    intern_find(ix->prefixes, name, (size_t)l) >= 0)
			return true;
		const char *t = name + len - l;
		if ((t[0] == '_' || t[-1] == '_') && !glue_only(t, (size_t)l) &&
		    intern_find(ix->suffixes, t, (size_t)l) >= 0)
			return true;
	}
	return false;
}

/* ---------------------------------------------------------------- wrappers */

static bool is_keyword(const char *w)
{
	static const char *const kw[] = {"sizeof", "return", "if", "while", "for", "switch", "do", "typeof",
					 "__typeof__", "__typeof", "_Alignof", "__alignof__", "_Generic",
					 "void", "int", "char", "long", "short", "unsigned", "signed", "const",
					 "volatile", "struct", "union", "enum", "static", "inline", "bool",
					 "_Bool", "float", "double", "else", "case", "default", "goto", NULL};
	for (int i = 0; kw[i]; i++)
		if (!strcmp(w, kw[i]))
			return true;
	return false;
}

static bool word_ident(const char *w)
{
	if (!ident_start(*w))
		return false;
	for (const char *p = w; *p; p++)
		if (!ident_char(*p))
			return false;
	return !is_keyword(w);
}

static void words_free(StrVec *v)
{
	for (int i = 0; i < v->n; i++)
		free(v->v[i]);
	vec_free(v);
}

static void words_range(const Toks *T, int a, int b, StrVec *out)
{
	for (int k = a; k <= b; k++)
		vec_push(out, tok_dup(T, k));
}

/* words[a] is "(" and words[b] its match. */
static bool wraps(const StrVec *w, int a, int b)
{
	if (a > b || strcmp(w->v[a], "(") || strcmp(w->v[b], ")"))
		return false;
	int depth = 0;
	for (int i = a; i <= b; i++) {
		if (!strcmp(w->v[i], "("))
			depth++;
		else if (!strcmp(w->v[i], ")") && --depth == 0)
			return i == b;
	}
	return false;
}

static void words_cut(StrVec *w, int at, int n)
{
	for (int i = at; i < at + n; i++)
		free(w->v[i]);
	memmove(w->v + at, w->v + at + n, (size_t)(w->n - at - n) * sizeof(char *));
	w->n -= n;
}

/* Parentheses a macro puts around its parameters and its whole body say
 * nothing about what it does: ( x ) -> x, and outer ( ... ) go. */
static void words_normalize(StrVec *w)
{
	for (int i = 0; i + 2 < w->n; i++)
		if (!strcmp(w->v[i], "(") && word_ident(w->v[i + 1]) && !strcmp(w->v[i + 2], ")") &&
		    !(i > 0 && word_ident(w->v[i - 1]))) {
			words_cut(w, i + 2, 1);
			words_cut(w, i, 1);
		}
	while (w->n >= 2 && wraps(w, 0, w->n - 1)) {
		words_cut(w, w->n - 1, 1);
		words_cut(w, 0, 1);
	}
	if (w->n >= 3 && !strcmp(w->v[0], "&") && wraps(w, 1, w->n - 1)) {
		words_cut(w, w->n - 1, 1);
		words_cut(w, 1, 1);
	}
}

static int param_index(const StrVec *params, const char *w)
{
	for (int i = 0; i < params->n; i++)
		if (!strcmp(params->v[i], w))
			return i;
	return -1;
}

/* The body (normalized words, without return and ;) is OTHER(params in
 * order), p->member or &p->member: fills the wrapper's form. */
static bool match_body(DeadItem *w, const StrVec *b)
{
	if (b->n >= 3 && word_ident(b->v[0]) && strcmp(b->v[0], w->name) && !strcmp(b->v[1], "(") &&
	    wraps(b, 1, b->n - 1)) {
		int np = w->params.n;
		if (np == 0 ? b->n != 3 : b->n != 2 * np + 2)
			return false;
		for (int i = 0; i < np; i++) {
			if (strcmp(b->v[2 + 2 * i], w->params.v[i]))
				return false;
			if (strcmp(b->v[3 + 2 * i], i + 1 < np ? "," : ")"))
				return false;
		}
		w->form = WF_CALL;
		w->callee = xstrdup(b->v[0]);
		StrBuf e = {0};
		sb_addf(&e, "%s(", w->callee);
		for (int i = 0; i < np; i++)
			sb_addf(&e, "%s%s", i ? ", " : "", w->params.v[i]);
		sb_adds(&e, ")");
		w->expr = e.buf;
		return true;
	}
	if (w->params.n != 1)
		return false;
	int i = 0;
	bool addr = b->n && !strcmp(b->v[0], "&");
	i += addr;
	if (i + 3 > b->n || param_index(&w->params, b->v[i]) != 0 || strcmp(b->v[i + 1], "->") ||
	    !word_ident(b->v[i + 2]))
		return false;
	StrBuf m = {0};
	sb_adds(&m, b->v[i + 2]);
	for (i += 3; i + 1 < b->n && !strcmp(b->v[i], ".") && word_ident(b->v[i + 1]); i += 2)
		sb_addf(&m, ".%s", b->v[i + 1]);
	if (i != b->n) {
		free(m.buf);
		return false;
	}
	w->form = addr ? WF_ADDR : WF_MEMBER;
	w->param = 0;
	w->member = m.buf;
	w->expr = xasprintf("%s%s->%s", addr ? "&" : "", w->params.v[0], w->member);
	return true;
}

/* Parameter names of a parameter list (tokens a..b, between the parens):
 * false for anything but plain named parameters. */
static bool params_of(const Toks *T, int a, int b, StrVec *out)
{
	if (a > b)
		return true;
	if (a == b && tok_is(T, a, "void"))
		return true;
	int last = -1;
	for (int k = a; k <= b + 1; k++) {
		if (k <= b && !tok_is(T, k, ",")) {
			if (tok_is(T, k, "(") || tok_is(T, k, "...") || tok_is(T, k, "["))
				return false;
			last = k;
			continue;
		}
		if (last < 0 || T->t.v[last].kind != TK_IDENT)
			return false;
		char *p = tok_dup(T, last);
		if (!word_ident(p)) {
			free(p);
			return false;
		}
		vec_push(out, p);
		last = -1;
	}
	return true;
}

/* Lines first..last of the definition, grown over the comment right
 * above it; 0, 0 when other code shares its first or last line. */
static void def_lines(const Text *x, int a, int b, int *first, int *last)
{
	const Toks *T = &x->T;
	*first = *last = 0;
	if (!T->t.v[a].bol || (b + 1 < T->t.n && T->t.v[b + 1].line == T->t.v[b].line))
		return;
	int f = (int)T->t.v[a].line, l = (int)T->t.v[b].line;
	int c = f;
	while (c > 1 && T->lf[c - 1] == LF_COMMENT)
		c--;
	if (c < f) {
		/* the comment must begin on its own line */
		size_t off = 0;
		for (int n = 1; n < c; n++)
			off = (const char *)memchr(x->text + off, '\n', x->len - off) - x->text + 1;
		while (off < x->len && (x->text[off] == ' ' || x->text[off] == '\t'))
			off++;
		if (off + 1 < x->len && x->text[off] == '/' && (x->text[off + 1] == '*' || x->text[off + 1] == '/'))
			f = c;
	}
	*first = f;
	*last = l;
}

/* Is the provide p of header x a wrapper?  Fills w (name, params, form,
 * definition lines) when it is. */
static bool wrapper_shape(const Text *x, const Facts *f, const Symbols *sy, const SymEntry *p, DeadItem *w)
{
	const Toks *T = &x->T;
	const char *name = sym_name(sy, p);
	StrVec body = {0};
	bool ok = false;
	w->name = xstrndup(name, p->name_len);
	if (p->kind == SK_MACRO) {
		const Directive *d = NULL;
		for (uint32_t i = 0; i < f->ndirs && !d; i++) {
			const Directive *c = &facts_dirs(f)[i];
			if (c->kind == D_DEFINE && c->line == p->line && c->name_len == p->name_len &&
			    !memcmp(facts_name(f, c), name, p->name_len))
				d = c;
		}
		int k = find_name(T, p->line, name, p->name_len, true);
		if (!d || !(d->flags & DF_FUNCLIKE) || k < 0)
			goto out;
		Toks P, B;
		tokenize(facts_strs(f) + d->args_off, d->args_len, &P);
		tokenize(facts_text(f, d), d->text_len, &B);
		bool params_ok = params_of(&P, 0, P.t.n - 1, &w->params) ||
				 (P.t.n == 0);
		/* a macro's parameters are bare names */
		for (int i = 0; i < P.t.n && params_ok; i++)
			params_ok = P.t.v[i].kind == TK_IDENT || tok_is(&P, i, ",");
		if (params_ok && P.t.n == 1 && tok_is(&P, 0, "void"))
			params_ok = false;
		words_range(&B, 0, B.t.n - 1, &body);
		toks_free(&P);
		toks_free(&B);
		if (!params_ok)
			goto out;
		for (int i = 0; i < body.n; i++)
			if (!strcmp(body.v[i], "#") || !strcmp(body.v[i], "##"))
				goto out;
		w->is_macro = true;
		words_normalize(&body);
		ok = match_body(w, &body);
		if (ok)
			def_lines(x, T->t.v[k].hash_at, directive_end(T, k), &w->first, &w->last);
	} else {
		int k = find_name(T, p->line, name, p->name_len, false);
		if (k < 0 || !tok_is(T, k + 1, "(") || x->R.region_of[k] < 0)
			goto out;
		int r = x->R.region_of[k], a = x->R.start.v[r], e = x->R.end.v[r];
		bool is_static = false;
		for (int i = a; i < k; i++)
			is_static |= tok_is(T, i, "static");
		int rp = close_of(T, k + 1);
		if (!is_static || rp < 0 || !tok_is(T, e, "}"))
			goto out;
		int lb = rp + 1;
		while (lb < e && !tok_is(T, lb, "{"))
			lb++;
		if (!tok_is(T, lb, "{") || close_of(T, lb) != e)
			goto out;
		for (int i = lb + 1; i < e; i++)
			if (T->t.v[i].dir)
				goto out; /* an #if inside the body */
		if (!params_of(T, k + 2, rp - 1, &w->params))
			goto out;
		int bs = lb + 1, be = e - 1;
		if (tok_is(T, bs, "return"))
			bs++;
		if (be < bs || !tok_is(T, be, ";"))
			goto out;
		words_range(T, bs, be - 1, &body);
		for (int i = 0; i < body.n; i++)
			if (!strcmp(body.v[i], ";"))
				goto out;
		words_normalize(&body);
		ok = match_body(w, &body);
		if (ok)
			def_lines(x, a, e, &w->first, &w->last);
	}
out:
	words_free(&body);
	return ok;
}

/* ---------------------------------------------------------------- call sites */

/* Calls of w in T: name followed by "(", not a member, not inside
 * tokens skip_a..skip_b (the definition).  Each call's tokens: the name
 * and its closing parenthesis. */
typedef struct {
	int name, close;
} Call;
typedef VEC(Call) CallVec;

static void find_calls(const DeadItem *w, const Toks *T, int skip_a, int skip_b, CallVec *calls,
		       int *others)
{
	size_t n = strlen(w->name);
	for (int k = 0; k < T->t.n; k++) {
		if (!tok_eq(T, k, w->name, n) || (k >= skip_a && k <= skip_b))
			continue;
		if (tok_is(T, k - 1, ".") || tok_is(T, k - 1, "->"))
			continue;
		int c = tok_is(T, k + 1, "(") && T->t.v[k + 1].dir == T->t.v[k].dir ? close_of(T, k + 1) : -1;
		if (c < 0) {
			if (others)
				(*others)++;
			continue;
		}
		vec_push(calls, ((Call){k, c}));
	}
}

/* One wrapper's calls in one file, found on any thread: the file is read
 * and tokenized once for every wrapper it calls. */
typedef struct {
	int file, shape;
	int prov;      /* the wrapper's provide when file is its header, else -1 */
	IntVec lines;  /* of the calls, in token order */
	int others;    /* mentions that are not calls */
} CallJobItem;

typedef struct {
	Session *s;
	const DeadItem *shapes;
	CallJobItem *items;
	int *group_off; /* items sorted by file: group g is [off[g], off[g+1]) */
	int ngroups;
	int next;
	const int *order;
} CallJob;

static void *calls_worker(void *arg)
{
	CallJob *job = arg;
	for (;;) {
		int g = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
		if (g >= job->ngroups)
			break;
		int first = job->group_off[g], last = job->group_off[g + 1];
		Text x;
		text_open(job->s, job->items[job->order[first]].file, &x);
		for (int k = first; x.ok && k < last; k++) {
			CallJobItem *it = &job->items[job->order[k]];
			const DeadItem *w = &job->shapes[it->shape];
			int a = -1, b = -1;
			if (it->prov >= 0) {
				const Symbols *sy = job->s->ft.files[w->file].syms;
				if (!provide_extent(&x, sy, &sym_provides(sy)[it->prov], &a, &b))
					a = b = -1;
			}
			CallVec calls = {0};
			find_calls(w, &x.T, a, b, &calls, &it->others);
			for (int c = 0; c < calls.n; c++)
				vec_push(&it->lines, (int)x.T.t.v[calls.v[c].name].line);
			vec_free(&calls);
		}
		text_close(&x);
	}
	return NULL;
}

static const CallJobItem *sort_items;
static int by_file_then_index(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	if (sort_items[i].file != sort_items[j].file)
		return sort_items[i].file - sort_items[j].file;
	return i - j;
}

/* Fills every item's calls, the files shared out among the threads. */
static void find_all_calls(Session *s, const DeadItem *shapes, CallJobItem *items, int n)
{
	int *order = xmalloc(((size_t)n + 1) * sizeof(int));
	for (int i = 0; i < n; i++)
		order[i] = i;
	sort_items = items;
	qsort(order, (size_t)n, sizeof(int), by_file_then_index);
	int *off = xmalloc(((size_t)n + 2) * sizeof(int));
	int ngroups = 0;
	for (int i = 0; i < n; i++)
		if (!i || items[order[i]].file != items[order[i - 1]].file)
			off[ngroups++] = i;
	off[ngroups] = n;
	CallJob job = {.s = s, .shapes = shapes, .items = items, .group_off = off, .ngroups = ngroups,
		       .order = order};
	run_threads(calls_worker, &job, s->opt->jobs);
	free(off);
	free(order);
}

static Session *sites_session;

static int by_path_line(const void *a, const void *b)
{
	const DeadSite *x = a, *y = b;
	int c = x->file == y->file ? 0
				   : strcmp(session_path(sites_session, x->file), session_path(sites_session, y->file));
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* ---------------------------------------------------------------- dead_run */

static int cmp_item(const void *a, const void *b)
{
	const DeadItem *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->file != y->file)
		return x->file - y->file;
	return (x->line > y->line) - (x->line < y->line);
}

static bool candidate_kind(int kind)
{
	return kind == SK_MACRO || kind == SK_TYPEDEF || kind == SK_TAG_DEF || kind == SK_ENUM_CONST ||
	       kind == SK_FUNC_DEF || kind == SK_VAR_DEF || kind == SK_FUNC_DECL || kind == SK_VAR_DECL;
}

static const char *what_of(const Text *x, const SymEntry *p, const char *name)
{
	switch (p->kind) {
	case SK_MACRO:
		return "macro";
	case SK_TYPEDEF:
		return "typedef";
	case SK_TAG_DEF: {
		int k = x->ok ? find_name(&x->T, p->line, name, p->name_len, false) : -1;
		if (k > 0 && (tok_is(&x->T, k - 1, "union") || tok_is(&x->T, k - 1, "enum")))
			return tok_is(&x->T, k - 1, "union") ? "union" : "enum";
		return "struct";
	}
	case SK_ENUM_CONST:
		return "enum constant";
	case SK_FUNC_DEF:
		return "inline function";
	case SK_VAR_DEF:
		return "variable";
	case SK_FUNC_DECL:
		return "prototype";
	default:
		return "extern variable";
	}
}

/* A struct, union or enum body can go only with everything declared in
 * the same declaration: its enum constants, a typedef or variable named
 * after the closing brace. */
static bool tag_all_dead(const Text *x, const Symbols *sy, uint32_t tag, const bool *dead)
{
	const SymEntry *p = &sym_provides(sy)[tag];
	int k = x->ok ? find_name(&x->T, p->line, sym_name(sy, p), p->name_len, false) : -1;
	int r = k >= 0 ? x->R.region_of[k] : -1;
	if (r < 0)
		return false;
	uint32_t from = x->T.t.v[x->R.start.v[r]].line, to = x->T.t.v[x->R.end.v[r]].line;
	for (uint32_t j = 0; j < sy->nprovides; j++) {
		const SymEntry *q = &sym_provides(sy)[j];
		if (j != tag && candidate_kind(q->kind) && q->line >= from && q->line <= to && !dead[j])
			return false;
	}
	return true;
}

/* The name is mentioned in header x outside every declaration of it. */
static bool used_in_own_text(const Text *x, const Symbols *sy, const char *name, size_t n)
{
	if (!x->ok || !x->R.reliable)
		return true;
	IntVec ranges = {0};
	bool found_all = true;
	for (uint32_t k = 0; k < sy->nprovides; k++) {
		const SymEntry *p = &sym_provides(sy)[k];
		if (p->kind == SK_SEED || p->name_len != n || memcmp(sym_name(sy, p), name, n))
			continue;
		int a, b;
		if (!provide_extent(x, sy, p, &a, &b)) {
			found_all = false;
			break;
		}
		vec_push(&ranges, a);
		vec_push(&ranges, b);
	}
	bool used = !found_all;
	for (int k = 0; k < x->T.t.n && !used; k++) {
		if (!tok_eq(&x->T, k, name, n))
			continue;
		bool inside = false;
		for (int r = 0; r + 1 < ranges.n && !inside; r += 2)
			inside = k >= ranges.v[r] && k <= ranges.v[r + 1];
		used = !inside;
	}
	vec_free(&ranges);
	return used;
}

static void forwards_of(const Index *ix, const Text *x, const Symbols *sy, const Facts *f, DeadVec *out)
{
	for (uint32_t k = 0; k < sy->nprovides; k++) {
		const SymEntry *p = &sym_provides(sy)[k];
		if (p->kind != SK_TAG_DECL)
			continue;
		const char *name = sym_name(sy, p);
		IntVec chain = {0};
		char *cond = facts_condition(f, facts_dir_at_line(f, p->line), &chain);
		char *reason = NULL;
		/* declared or defined earlier, in the same #if branch or one
		 * around it: this one adds nothing */
		for (uint32_t j = 0; j < sy->nprovides && !reason; j++) {
			const SymEntry *q = &sym_provides(sy)[j];
			if (!sym_is_tag_kind(q->kind) || q->line >= p->line || q->name_len != p->name_len ||
			    memcmp(sym_name(sy, q), name, p->name_len))
				continue;
			IntVec qc = {0};
			char *qcond = facts_condition(f, facts_dir_at_line(f, q->line), &qc);
			bool around = qc.n <= chain.n;
			for (int i = 0; i < qc.n && around; i++)
				around = qc.v[i] == chain.v[i];
			if (around)
				reason = xasprintf("already %s at line %u", q->kind == SK_TAG_DEF ? "defined" : "declared",
						   q->line);
			free(qcond);
			vec_free(&qc);
		}
		/* never named again in the file, and no #include after it that
		 * could be relying on it */
		if (!reason && x->ok) {
			int t = find_name(&x->T, p->line, name, p->name_len, false);
			int r = t >= 0 ? x->R.region_of[t] : -1;
			bool referenced = r < 0;
			for (int i = r >= 0 ? x->R.end.v[r] + 1 : 0; i < x->T.t.n && !referenced; i++)
				referenced = tok_eq(&x->T, i, name, p->name_len);
			/* a header included after it may use the declaration,
			 * unless no other file of the tree names the tag at all */
			const NameInfo *ni = &ix->info[intern_find(ix->names, name, p->name_len)];
			bool elsewhere = ni->multi || (ni->user1 >= 0 && ni->user1 != x->file);
			for (uint32_t i = 0; i < f->ndirs && !referenced && elsewhere; i++) {
				const Directive *d = &facts_dirs(f)[i];
				referenced = (d->kind == D_INCLUDE || d->kind == D_INCLUDE_NEXT) && d->line > p->line;
			}
			if (!referenced)
				reason = xstrdup("never referred to after it in this file");
		}
		if (reason) {
			DeadItem it = {.kind = DK_FORWARD, .file = x->file, .line = p->line,
				       .name = xstrndup(name, p->name_len), .condition = cond, .reason = reason};
			int tk = x->ok ? find_name(&x->T, p->line, name, p->name_len, false) : -1;
			it.what = xstrdup(tk > 0 ? (tok_is(&x->T, tk - 1, "union") ? "union"
						    : tok_is(&x->T, tk - 1, "enum") ? "enum" : "struct")
					 : "struct");
			vec_push(out, it);
		} else {
			free(cond);
		}
		vec_free(&chain);
	}
}

static void item_free(DeadItem *it)
{
	free(it->name);
	free(it->what);
	free(it->condition);
	free(it->reason);
	words_free(&it->params);
	free(it->callee);
	free(it->member);
	free(it->expr);
	vec_free(&it->calls);
}

void dead_free(DeadVec *v)
{
	for (int i = 0; i < v->n; i++)
		item_free(&v->v[i]);
	vec_free(v);
}

const char *dead_kind_name(int kind)
{
	static const char *const names[DK_NKINDS] = {"dead", "needless-forward", "wrapper"};
	return kind >= 0 && kind < DK_NKINDS ? names[kind] : "?";
}

static bool is_uapi(const char *k)
{
	return !strncmp(k, "uapi/", 5) || strstr(k, "/uapi/") != NULL;
}

void dead_run(Session *s, const int *headers, int nheaders, unsigned kinds, DeadVec *out)
{
	Index ix = {0};
	ix.s = s;
	ix.names = interner_new();
	ix.seeds = interner_new();
	ix.prefixes = interner_new();
	ix.suffixes = interner_new();
	for (int i = 0; i < s->ft.nfiles; i++) {
		File *f = &s->ft.files[i];
		if (!(f->flags & F_IN_TREE) || (f->flags & F_DIR))
			continue;
		const char *k = fs_keystr(&s->ft, f->key);
		if (is_c_file(k))
			vec_push(&ix.cfiles, i);
		else if (is_raw_file(k))
			vec_push(&ix.rawfiles, i);
	}
	fs_symbols_all(&s->ft, ix.cfiles.v, ix.cfiles.n, s->opt->jobs);
	fs_symbols_all(&s->ft, headers, nheaders, s->opt->jobs);

	/* the names the headers declare, and the wrapper shapes among them */
	VEC(DeadItem) shapes = {0};
	IntVec shape_prov = {0}; /* the provide index of each shape */
	for (int h = 0; h < nheaders; h++) {
		const Symbols *sy = s->ft.files[headers[h]].syms;
		for (uint32_t k = 0; sy && k < sy->nprovides; k++) {
			const SymEntry *p = &sym_provides(sy)[k];
			/* forward-declared tags too: whether other files name them */
			if (candidate_kind(p->kind) || p->kind == SK_TAG_DECL)
				intern(ix.names, sym_name(sy, p), p->name_len);
		}
	}
	int nn = intern_count(ix.names);
	ix.info = xmalloc(((size_t)nn + 1) * sizeof(NameInfo));
	for (int i = 0; i <= nn; i++)
		ix.info[i] = (NameInfo){.user1 = -1, .def_file = -1, .wrap = -1};
	if (kinds & (1u << DK_WRAPPER)) {
		for (int h = 0; h < nheaders; h++) {
			const Symbols *sy = s->ft.files[headers[h]].syms;
			const Facts *f = s->ft.files[headers[h]].facts;
			bool any = false;
			for (uint32_t k = 0; sy && f && k < sy->nprovides && !any; k++)
				any = sym_provides(sy)[k].kind == SK_FUNC_DEF || sym_provides(sy)[k].kind == SK_MACRO;
			if (!any)
				continue;
			Text x;
			text_open(s, headers[h], &x);
			for (uint32_t k = 0; x.ok && k < sy->nprovides; k++) {
				const SymEntry *p = &sym_provides(sy)[k];
				if (p->kind != SK_FUNC_DEF && p->kind != SK_MACRO)
					continue;
				DeadItem w = {.kind = DK_WRAPPER, .file = headers[h], .line = p->line};
				if (!wrapper_shape(&x, f, sy, p, &w)) {
					item_free(&w);
					continue;
				}
				int id = intern_find(ix.names, w.name, strlen(w.name));
				if (ix.info[id].wrap < 0) {
					ix.info[id].wrap = ix.wusers.n;
					vec_push(&ix.wusers, ((IntVec){0}));
				}
				vec_push(&shapes, w);
				vec_push(&shape_prov, (int)k);
			}
			text_close(&x);
		}
	}
	index_scan(&ix);
	index_scan_raw(&ix);

	for (int h = 0; h < nheaders; h++) {
		int hf = headers[h];
		const Symbols *sy = s->ft.files[hf].syms;
		const Facts *f = s->ft.files[hf].facts;
		const char *key = fs_keystr(&s->ft, s->ft.files[hf].key);
		if (!sy || !f)
			continue;
		Text x = {0};
		bool opened = false;
		if (kinds & (1u << DK_DEAD) && !is_uapi(key)) {
			bool *dead = xcalloc((size_t)sy->nprovides + 1, sizeof(bool));
			for (uint32_t k = 0; k < sy->nprovides; k++) {
				const SymEntry *p = &sym_provides(sy)[k];
				if (!candidate_kind(p->kind))
					continue;
				const char *name = sym_name(sy, p);
				int id = intern_find(ix.names, name, p->name_len);
				const NameInfo *ni = &ix.info[id];
				if (ni->multi || (ni->user1 >= 0 && ni->user1 != hf))
					continue;
				if (p->kind == SK_MACRO && f->guard >= 0 && f->guard_name_len == p->name_len &&
				    !memcmp(facts_strs(f) + f->guard_name_off, name, p->name_len))
					continue;
				if (maybe_pasted(&ix, name, p->name_len))
					continue;
				if (!opened) {
					text_open(s, hf, &x);
					opened = true;
				}
				if (ni->user1 == hf && used_in_own_text(&x, sy, name, p->name_len))
					continue;
				dead[k] = true;
			}
			for (uint32_t k = 0; k < sy->nprovides; k++) {
				const SymEntry *p = &sym_provides(sy)[k];
				if (!dead[k] || (p->kind == SK_TAG_DEF && !tag_all_dead(&x, sy, k, dead)))
					continue;
				const char *name = sym_name(sy, p);
				const NameInfo *ni = &ix.info[intern_find(ix.names, name, p->name_len)];
				DeadItem it = {.kind = DK_DEAD, .file = hf, .line = p->line,
					       .name = xstrndup(name, p->name_len)};
				it.what = xstrdup(what_of(&x, p, name));
				it.condition = facts_condition(f, facts_dir_at_line(f, p->line), NULL);
				if (ni->def_file >= 0)
					it.reason = xasprintf("defined at %s:%u, which nothing refers to",
							      session_path(s, ni->def_file), ni->def_line);
				vec_push(out, it);
			}
			free(dead);
		}
		if (kinds & (1u << DK_FORWARD)) {
			if (!opened) {
				text_open(s, hf, &x);
				opened = true;
			}
			forwards_of(&ix, &x, sy, f, out);
		}
		if (opened)
			text_close(&x);
	}

	/* wrappers: the only definition of their name, with call sites */
	bool *kept = xcalloc((size_t)shapes.n + 1, sizeof(bool));
	VEC(CallJobItem) items = {0};
	for (int i = 0; i < shapes.n; i++) {
		DeadItem *w = &shapes.v[i];
		const NameInfo *ni = &ix.info[intern_find(ix.names, w->name, strlen(w->name))];
		if (ni->provides != 1)
			continue;
		kept[i] = true;
		const Facts *hfacts = s->ft.files[w->file].facts;
		w->condition = facts_condition(hfacts, facts_dir_at_line(hfacts, w->line), NULL);
		w->other_uses = ni->raw_users;
		const IntVec *users = &ix.wusers.v[ni->wrap];
		vec_push(&items, ((CallJobItem){.file = w->file, .shape = i, .prov = shape_prov.v[i]}));
		for (int u = 0; u < users->n; u++)
			if (users->v[u] != w->file)
				vec_push(&items, ((CallJobItem){.file = users->v[u], .shape = i, .prov = -1}));
	}
	find_all_calls(s, shapes.v, items.v, items.n);
	for (int k = 0; k < items.n; k++) {
		CallJobItem *it = &items.v[k];
		DeadItem *w = &shapes.v[it->shape];
		for (int c = 0; c < it->lines.n; c++)
			vec_push(&w->calls, ((DeadSite){it->file, (unsigned)it->lines.v[c]}));
		w->call_files += it->lines.n > 0;
		w->other_uses += it->others;
		vec_free(&it->lines);
	}
	vec_free(&items);
	sites_session = s;
	for (int i = 0; i < shapes.n; i++) {
		DeadItem *w = &shapes.v[i];
		/* by path, then line: the order a reader looks them up in */
		if (w->calls.n > 1)
			qsort(w->calls.v, (size_t)w->calls.n, sizeof(DeadSite), by_path_line);
		if (kept[i] && w->calls.n > 0) {
			w->what = xstrdup(w->is_macro ? "macro" : "inline function");
			vec_push(out, *w);
		} else {
			item_free(w);
		}
	}
	free(kept);
	vec_free(&shapes);
	vec_free(&shape_prov);
	if (out->n)
		qsort(out->v, (size_t)out->n, sizeof(DeadItem), cmp_item);

	for (int i = 0; i < ix.wusers.n; i++)
		vec_free(&ix.wusers.v[i]);
	vec_free(&ix.wusers);
	vec_free(&ix.cfiles);
	vec_free(&ix.rawfiles);
	free(ix.info);
	interner_free(ix.names);
	interner_free(ix.seeds);
	interner_free(ix.prefixes);
	interner_free(ix.suffixes);
}

/* ---------------------------------------------------------------- rewriting */

/* The argument is a postfix expression (a name followed by ->x, .x,
 * [..] or (..)): it needs no parentheses in front of -> */
static bool simple_operand(const Toks *T, int a, int b)
{
	if (a > b || T->t.v[a].kind != TK_IDENT)
		return false;
	for (int k = a + 1; k <= b;) {
		if ((tok_is(T, k, "->") || tok_is(T, k, ".")) && k + 1 <= b && T->t.v[k + 1].kind == TK_IDENT) {
			k += 2;
		} else if (tok_is(T, k, "[") || tok_is(T, k, "(")) {
			int c = close_of(T, k);
			if (c < 0 || c > b)
				return false;
			k = c + 1;
		} else {
			return false;
		}
	}
	return true;
}

static void rewrite_into(const DeadItem *w, const char *text, size_t len, StrBuf *out, int *ncalls);

/* Appends the replacement of one call (tokens c.name .. c.close of T). */
static void replace_call(const DeadItem *w, const Toks *T, Call c, StrBuf *out, int *ncalls)
{
	const char *s = T->s;
	/* the argument: from the first token after '(' to the last before ')' */
	int a = c.name + 2, b = c.close - 1;
	StrBuf arg = {0};
	if (a <= b)
		rewrite_into(w, s + T->t.v[a].off, T->t.v[b].off + T->t.v[b].len - T->t.v[a].off, &arg, ncalls);
	bool paren_arg = !simple_operand(T, a, b);
	bool postfix = tok_is(T, c.close + 1, "->") || tok_is(T, c.close + 1, ".") || tok_is(T, c.close + 1, "[") ||
		       tok_is(T, c.close + 1, "(") || tok_is(T, c.close + 1, "++") || tok_is(T, c.close + 1, "--");
	if (postfix)
		sb_addc(out, '(');
	if (w->form == WF_ADDR)
		sb_addc(out, '&');
	sb_addf(out, paren_arg ? "(%s)" : "%s", sb_str(&arg));
	sb_addf(out, "->%s", w->member);
	if (postfix)
		sb_addc(out, ')');
	free(arg.buf);
	(*ncalls)++;
}

static void rewrite_into(const DeadItem *w, const char *text, size_t len, StrBuf *out, int *ncalls)
{
	Toks T;
	tokenize(text, len, &T);
	CallVec calls = {0};
	find_calls(w, &T, -1, -1, &calls, NULL);
	size_t pos = 0;
	for (int i = 0; i < calls.n; i++) {
		Call c = calls.v[i];
		const Tok *nt = &T.t.v[c.name];
		if (nt->off < pos)
			continue; /* inside an argument already rewritten */
		int nargs = 0;
		if (c.close > c.name + 2) {
			nargs = 1;
			for (int k = c.name + 2; k < c.close; k++) {
				if (tok_is(&T, k, "(") || tok_is(&T, k, "[") || tok_is(&T, k, "{")) {
					k = close_of(&T, k);
					if (k < 0)
						break;
				} else if (tok_is(&T, k, ",")) {
					nargs++;
				}
			}
		}
		if (nargs != w->params.n)
			continue; /* not the wrapper's arity: leave it */
		sb_add(out, text + pos, nt->off - pos);
		if (w->form == WF_CALL) {
			sb_adds(out, w->callee);
			pos = nt->off + nt->len;
			(*ncalls)++;
			continue;
		}
		replace_call(w, &T, c, out, ncalls);
		pos = T.t.v[c.close].off + 1;
	}
	sb_add(out, text + pos, len - pos);
	vec_free(&calls);
	toks_free(&T);
}

int dead_count_calls(const DeadItem *w, const char *text, size_t len)
{
	StrBuf out = {0};
	int n = 0;
	rewrite_into(w, text, len, &out, &n);
	free(out.buf);
	return n;
}

static bool line_blank(const char *text, size_t a, size_t b)
{
	for (size_t i = a; i < b; i++)
		if (!isspace((unsigned char)text[i]))
			return false;
	return true;
}

char *dead_rewrite(const DeadItem *w, const char *text, size_t len, bool drop_def, int *ncalls, size_t *outlen)
{
	StrBuf kept = {0};
	if (drop_def && w->first > 0) {
		/* start of line n at ls[n - 1]; ls[nl] = len */
		VEC(size_t) ls = {0};
		vec_push(&ls, (size_t)0);
		for (size_t i = 0; i < len; i++)
			if (text[i] == '\n' && i + 1 < len)
				vec_push(&ls, i + 1);
		int nl = ls.n;
		vec_push(&ls, len);
		int first = w->first, last = w->last < nl ? w->last : nl;
		/* a blank line on both sides: one of them goes too */
		if (last < nl && (first == 1 || line_blank(text, ls.v[first - 2], ls.v[first - 1])) &&
		    line_blank(text, ls.v[last], ls.v[last + 1]))
			last++;
		sb_add(&kept, text, ls.v[first - 1]);
		sb_add(&kept, text + ls.v[last], len - ls.v[last]);
		vec_free(&ls);
	} else {
		sb_add(&kept, text, len);
	}
	StrBuf out = {0};
	*ncalls = 0;
	rewrite_into(w, kept.buf ? kept.buf : "", kept.len, &out, ncalls);
	free(kept.buf);
	*outlen = out.len;
	if (!out.buf)
		return xstrdup("");
	return out.buf;
}

void dead_cocci(const DeadItem *w, StrBuf *out)
{
	sb_addf(out, "// %s(", w->name);
	for (int i = 0; i < w->params.n; i++)
		sb_addf(out, "%s%s", i ? ", " : "", w->params.v[i]);
	sb_addf(out, ") is %s: write that at every call site.\n", w->expr);
	sb_adds(out, "@@\n");
	if (w->params.n == 1)
		sb_adds(out, "expression E;\n");
	else if (w->params.n > 1) {
		sb_adds(out, "expression ");
		for (int i = 0; i < w->params.n; i++)
			sb_addf(out, "%sE%d", i ? ", " : "", i + 1);
		sb_adds(out, ";\n");
	}
	sb_adds(out, "@@\n");
	StrBuf args = {0};
	for (int i = 0; i < w->params.n; i++) {
		if (w->params.n == 1)
			sb_adds(&args, "E");
		else
			sb_addf(&args, "%sE%d", i ? ", " : "", i + 1);
	}
	const char *a = args.buf ? args.buf : "";
	sb_addf(out, "- %s(%s)\n", w->name, a);
	if (w->form == WF_CALL)
		sb_addf(out, "+ %s(%s)\n", w->callee, a);
	else
		sb_addf(out, "+ %sE->%s\n", w->form == WF_ADDR ? "&" : "", w->member);
	free(args.buf);
}
