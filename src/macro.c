/*
 * macro.c — tokens, macro expansion with hide sets, and the three-valued
 * #if evaluator.
 *
 * Expansion follows the C standard's rescanning rules with Prosser's hide
 * sets: every token carries the set of macro names it came from, and a
 * name in its own hide set is not expanded again.  Input is a stack of
 * tokens (top = next token), so an expansion is pushed back for rescanning
 * without copying the rest of the line.  Function-like macros get
 * stringizing (#), pasting (##, with placemarkers for empty arguments),
 * variadic arguments, __VA_OPT__ and GNU's ", ## __VA_ARGS__" comma
 * elision: the Linux kernel's IS_ENABLED() and __stringify() need all of
 * them.
 *
 * The evaluator is a precedence-climbing parser over the expanded tokens.
 * Values are 64-bit with C's signed/unsigned promotion, or unknown; && ||
 * and ?: short-circuit through unknowns when the known side decides.
 */
#include "macro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TK_IDENT, TK_NUM, TK_STR, TK_CHAR, TK_PUNCT, TK_PLACEMARKER };

typedef struct {
	const char *s;
	uint32_t len;
	uint8_t kind;
	bool space;
	int id;        /* identifier id, or -1 */
	const int *hs; /* hide set: hs[0] = count, then sorted ids; NULL = empty */
} Tok;

typedef VEC(Tok) TokVec;

struct Macro {
	int state; /* Tri */
	bool funclike, variadic, parsed;
	int nparams;
	int *params;
	const char *body, *args;
	uint32_t body_len, args_len;
	Tok *toks;
	int ntoks;
};

/* Deepest nesting of #if parentheses or macro arguments hdrslim follows:
 * far beyond real code, far below what would exhaust the stack. */
#define MAX_NESTING 1000
#define WORK_PER_EXPANSION 1000000L
#define WORK_PER_RESET (4L * WORK_PER_EXPANSION) /* a kernel TU uses ~30k */

typedef struct {
	MacroTable *mt;
	bool in_if;
	bool maybe; /* also expand maybe-defined macros (union-mode includes) */
	const char *err;
	long budget;       /* caps runaway expansion: tokens */
	long paste_budget; /* and bytes made by ## */
	int depth;         /* nesting of argument pre-expansion */
} Expander;

static int id_defined, id_has_include, id_has_include_next, id_va_args, id_va_opt;
static int id_line, id_file, id_include_level, id_counter;

void mt_init(MacroTable *mt, Interner *names, bool unknown_default)
{
	memset(mt, 0, sizeof(*mt));
	mt->names = names;
	mt->work_left = WORK_PER_RESET;
	mt->unknown_default = unknown_default;
	id_defined = intern_cstr(names, "defined");
	id_has_include = intern_cstr(names, "__has_include");
	id_has_include_next = intern_cstr(names, "__has_include_next");
	id_va_args = intern_cstr(names, "__VA_ARGS__");
	id_va_opt = intern_cstr(names, "__VA_OPT__");
	id_line = intern_cstr(names, "__LINE__");
	id_file = intern_cstr(names, "__FILE__");
	id_include_level = intern_cstr(names, "__INCLUDE_LEVEL__");
	id_counter = intern_cstr(names, "__COUNTER__");
}

void mt_reset(MacroTable *mt)
{
	for (int i = 0; i < mt->touched.n; i++)
		mt->by_id[mt->touched.v[i]] = NULL;
	mt->touched.n = 0;
	arena_clear(&mt->arena);
	mt->work_left = WORK_PER_RESET;
}

void mt_free(MacroTable *mt)
{
	mt_reset(mt);
	arena_free(&mt->arena); /* the block mt_reset keeps */
	free(mt->by_id);
	vec_free(&mt->touched);
}

static Macro *slot(MacroTable *mt, int id)
{
	if (id >= mt->cap) {
		int cap = mt->cap ? mt->cap : 1024;
		while (cap <= id)
			cap *= 2;
		mt->by_id = xrealloc(mt->by_id, (size_t)cap * sizeof(Macro *));
		memset(mt->by_id + mt->cap, 0, (size_t)(cap - mt->cap) * sizeof(Macro *));
		mt->cap = cap;
	}
	Macro *m = mt->by_id[id];
	if (!m) {
		m = arena_alloc(&mt->arena, sizeof(*m));
		memset(m, 0, sizeof(*m));
		mt->by_id[id] = m;
		vec_push(&mt->touched, id);
	}
	return m;
}

static Macro *lookup(MacroTable *mt, int id)
{
	return id >= 0 && id < mt->cap ? mt->by_id[id] : NULL;
}

void mt_define(MacroTable *mt, const Facts *f, const Directive *d)
{
	if (d->flags & DF_BADNAME)
		return;
	int id = intern(mt->names, facts_name(f, d), d->name_len);
	Macro *m = slot(mt, id);
	memset(m, 0, sizeof(*m));
	m->state = TRI_TRUE;
	m->funclike = (d->flags & DF_FUNCLIKE) != 0;
	m->body = facts_text(f, d);
	m->body_len = d->text_len;
	m->args = facts_strs(f) + d->args_off;
	m->args_len = d->args_len;
}

void mt_define_maybe(MacroTable *mt, const Facts *f, const Directive *d)
{
	mt_define(mt, f, d);
	if (!(d->flags & DF_BADNAME))
		mt->by_id[intern(mt->names, facts_name(f, d), d->name_len)]->state = TRI_UNKNOWN;
}

void mt_apply(MacroTable *mt, const Facts *f)
{
	const Directive *d = facts_dirs(f);
	for (uint32_t i = 0; i < f->ndirs; i++) {
		if (d[i].kind == D_DEFINE)
			mt_define(mt, f, &d[i]);
		else if (d[i].kind == D_UNDEF && !(d[i].flags & DF_BADNAME))
			mt_undef(mt, facts_name(f, &d[i]), d[i].name_len);
	}
}

void mt_undef(MacroTable *mt, const char *name, size_t len)
{
	Macro *m = slot(mt, intern(mt->names, name, len));
	memset(m, 0, sizeof(*m));
	m->state = TRI_FALSE;
}

void mt_forget(MacroTable *mt, const char *name, size_t len)
{
	Macro *m = slot(mt, intern(mt->names, name, len));
	memset(m, 0, sizeof(*m));
	m->state = TRI_UNKNOWN;
}

static Tri state_of(MacroTable *mt, int id)
{
	Macro *m = lookup(mt, id);
	if (m)
		return (Tri)m->state;
	return mt->unknown_default ? TRI_UNKNOWN : TRI_FALSE;
}

Tri mt_defined(MacroTable *mt, const char *name, size_t len)
{
	int id = intern_find(mt->names, name, len);
	if (id < 0)
		return mt->unknown_default ? TRI_UNKNOWN : TRI_FALSE;
	if ((id == id_has_include || id == id_has_include_next) && !lookup(mt, id))
		return TRI_TRUE;
	return state_of(mt, id);
}

/* ---- tokens ---- */

static bool ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* The length of the punctuator at p: the longest of C's multi-character
 * ones that starts there ("%:%:" "..." "<<=" ">>=" "##" "<<" ">>" "<=" ">="
 * "==" "!=" "&&" "||" "->" "++" "--" "+=" "-=" "*=" "/=" "%=" "&=" "|=" "^="
 * "<:" ":>" "<%" "%>" "%:"), else 1.  A switch, not a table scan: every
 * #if expression and macro body of a walk goes through here. */
static size_t punct_len(const char *p, const char *end)
{
	size_t avail = (size_t)(end - p);
	if (avail < 2)
		return 1;
	char a = p[0], b = p[1], c = avail >= 3 ? p[2] : 0;
	switch (a) {
	case '%':
		if (b == ':')
			return avail >= 4 && c == '%' && p[3] == ':' ? 4 : 2;
		return b == '=' || b == '>' ? 2 : 1;
	case '.':
		return b == '.' && c == '.' ? 3 : 1;
	case '<':
		if (b == '<')
			return c == '=' ? 3 : 2;
		return b == '=' || b == ':' || b == '%' ? 2 : 1;
	case '>':
		if (b == '>')
			return c == '=' ? 3 : 2;
		return b == '=' ? 2 : 1;
	case '#':
		return b == '#' ? 2 : 1;
	case '=':
	case '!':
	case '*':
	case '/':
	case '^':
		return b == '=' ? 2 : 1;
	case '&':
	case '|':
		return b == a || b == '=' ? 2 : 1;
	case '-':
		return b == '>' || b == '-' || b == '=' ? 2 : 1;
	case '+':
		return b == '+' || b == '=' ? 2 : 1;
	case ':':
		return b == '>' ? 2 : 1;
	default:
		return 1;
	}
}

static void tokenize(MacroTable *mt, const char *s, size_t len, TokVec *out)
{
	const char *p = s, *end = s + len;
	bool space = false;
	while (p < end) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') {
			space = true;
			p++;
			continue;
		}
		Tok t = {.s = p, .space = space, .id = -1};
		space = false;
		const char *q = p;
		if ((*q == 'L' || *q == 'U' || *q == 'u') && q + 1 < end &&
		    (q[1] == '"' || q[1] == '\'' || (q[0] == 'u' && q[1] == '8' && q + 2 < end && q[2] == '"')))
			q += q[1] == '8' ? 2 : 1;
		if (*q == '"' || *q == '\'') {
			char quote = *q++;
			while (q < end && *q != quote) {
				if (*q == '\\' && q + 1 < end)
					q++;
				q++;
			}
			if (q < end)
				q++;
			t.kind = quote == '"' ? TK_STR : TK_CHAR;
		} else if (ident_start(*p)) {
			while (q < end && ident_char(*q))
				q++;
			t.kind = TK_IDENT;
			t.id = intern(mt->names, p, (size_t)(q - p));
		} else if ((*p >= '0' && *p <= '9') || (*p == '.' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
			q++;
			while (q < end) {
				if ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E' || q[-1] == 'p' || q[-1] == 'P'))
					q++;
				else if (ident_char(*q) || *q == '.')
					q++;
				else
					break;
			}
			t.kind = TK_NUM;
		} else {
			t.kind = TK_PUNCT;
			q = p + punct_len(p, end);
		}
		t.len = (uint32_t)(q - p);
		vec_push(out, t);
		p = q;
	}
}

/* Whether t is the punctuator s: byte by byte, no library call (prec()
 * asks it up to 18 times for each operator of every #if). */
static inline bool is_punct(const Tok *t, const char *s)
{
	if (t->kind != TK_PUNCT)
		return false;
	uint32_t i = 0;
	for (; i < t->len; i++)
		if (s[i] != t->s[i])
			return false; /* (s ends first: its NUL differs) */
	return s[i] == 0;
}

/* ---- hide sets ---- */

static bool hs_has(const int *hs, int id)
{
	if (!hs)
		return false;
	for (int i = 1; i <= hs[0]; i++)
		if (hs[i] == id)
			return true;
	return false;
}

static const int *hs_add(Arena *a, const int *hs, int id)
{
	if (hs_has(hs, id))
		return hs;
	int n = hs ? hs[0] : 0;
	int *r = arena_alloc(a, (size_t)(n + 2) * sizeof(int));
	r[0] = n + 1;
	int j = 1;
	bool placed = false;
	for (int i = 1; i <= n; i++) {
		if (!placed && id < hs[i])
			r[j++] = id, placed = true;
		r[j++] = hs[i];
	}
	if (!placed)
		r[j++] = id;
	return r;
}

static const int *hs_union(Arena *a, const int *x, const int *y)
{
	/* the common cases share a set instead of copying it */
	if (!y || x == y)
		return x;
	if (!x)
		return y;
	for (int i = 1; i <= y[0]; i++)
		x = hs_add(a, x, y[i]);
	return x;
}

static const int *hs_intersect(Arena *a, const int *x, const int *y)
{
	if (!x || !y)
		return NULL;
	int *r = arena_alloc(a, (size_t)(x[0] + 1) * sizeof(int));
	int n = 0;
	for (int i = 1; i <= x[0]; i++)
		if (hs_has(y, x[i]))
			r[++n] = x[i];
	r[0] = n;
	return n ? r : NULL;
}

/* ---- expansion ---- */

static void parse_macro(MacroTable *mt, Macro *m)
{
	if (m->parsed)
		return;
	m->parsed = true;
	if (m->funclike) {
		TokVec pv = {0};
		tokenize(mt, m->args, m->args_len, &pv);
		m->params = arena_alloc(&mt->arena, (size_t)(pv.n + 1) * sizeof(int));
		for (int i = 0; i < pv.n; i++) {
			if (pv.v[i].kind == TK_IDENT) {
				m->params[m->nparams++] = pv.v[i].id;
				if (i + 1 < pv.n && is_punct(&pv.v[i + 1], "..."))
					m->variadic = true, i++; /* named variadic: args... */
			} else if (is_punct(&pv.v[i], "...")) {
				m->params[m->nparams++] = id_va_args;
				m->variadic = true;
			}
		}
		vec_free(&pv);
	}
	TokVec bv = {0};
	tokenize(mt, m->body, m->body_len, &bv);
	m->toks = arena_alloc(&mt->arena, (size_t)(bv.n + 1) * sizeof(Tok));
	if (bv.n)
		memcpy(m->toks, bv.v, (size_t)bv.n * sizeof(Tok));
	m->ntoks = bv.n;
	vec_free(&bv);
}

static int param_index(const Macro *m, const Tok *t)
{
	if (t->kind != TK_IDENT)
		return -1;
	for (int i = 0; i < m->nparams; i++)
		if (m->params[i] == t->id)
			return i;
	return -1;
}

/* Pushes tokens onto the input stack so that v[0] is popped first. */
static void push_back(TokVec *stack, const Tok *v, int n)
{
	for (int i = n - 1; i >= 0; i--)
		vec_push(stack, v[i]);
}

static void expand_list(Expander *ex, const Tok *in, int n, TokVec *out);

static Tok stringize(Expander *ex, const TokVec *arg)
{
	StrBuf sb = {0};
	sb_addc(&sb, '"');
	for (int i = 0; i < arg->n; i++) {
		const Tok *t = &arg->v[i];
		if (t->kind == TK_PLACEMARKER)
			continue;
		if (i && t->space && sb.len > 1)
			sb_addc(&sb, ' ');
		for (uint32_t k = 0; k < t->len; k++) {
			char c = t->s[k];
			if ((t->kind == TK_STR || t->kind == TK_CHAR) && (c == '"' || c == '\\'))
				sb_addc(&sb, '\\');
			sb_addc(&sb, c);
		}
	}
	sb_addc(&sb, '"');
	Tok r = {.kind = TK_STR, .id = -1};
	r.s = arena_strndup(&ex->mt->arena, sb.buf, sb.len);
	r.len = (uint32_t)sb.len;
	free(sb.buf);
	return r;
}

/* Appends the paste of lhs (last of out) and rhs to out. */
static void paste(Expander *ex, TokVec *out, const Tok *rhs)
{
	if (rhs->kind == TK_PLACEMARKER)
		return;
	if (!out->n || out->v[out->n - 1].kind == TK_PLACEMARKER) {
		if (out->n)
			out->n--;
		vec_push(out, *rhs);
		return;
	}
	Tok lhs = out->v[--out->n];
	ex->paste_budget -= (long)lhs.len + rhs->len;
	if (ex->paste_budget < 0) {
		ex->err = "macro expansion too large";
		vec_push(out, lhs);
		return;
	}
	char *s = arena_alloc(&ex->mt->arena, lhs.len + rhs->len + 1);
	memcpy(s, lhs.s, lhs.len);
	memcpy(s + lhs.len, rhs->s, rhs->len);
	s[lhs.len + rhs->len] = 0;
	TokVec pv = {0};
	tokenize(ex->mt, s, lhs.len + rhs->len, &pv);
	for (int i = 0; i < pv.n; i++) {
		pv.v[i].space = i ? pv.v[i].space : lhs.space;
		pv.v[i].hs = lhs.hs;
		vec_push(out, pv.v[i]);
	}
	vec_free(&pv);
}

static bool arg_empty(const TokVec *a)
{
	for (int i = 0; i < a->n; i++)
		if (a->v[i].kind != TK_PLACEMARKER)
			return false;
	return true;
}

static void subst(Expander *ex, Macro *m, int from, int to, TokVec *args, int nargs, TokVec *out);

/* Is body[i] the start of "__VA_OPT__ (" in a variadic macro? */
static bool is_va_opt(const Macro *m, const Tok *body, int i, int to)
{
	return m->variadic && body[i].kind == TK_IDENT && body[i].id == id_va_opt && i + 1 < to &&
	       is_punct(&body[i + 1], "(");
}

/* Substitutes "__VA_OPT__ ( ... )" starting at body[i] into out: its
 * contents when the variadic argument is not empty, nothing otherwise.
 * Returns the index of the closing parenthesis. */
static int subst_va_opt(Expander *ex, Macro *m, int i, int to, TokVec *args, int nargs, TokVec *out)
{
	Tok *body = m->toks;
	int depth = 0, j;
	for (j = i + 1; j < to; j++) {
		if (is_punct(&body[j], "("))
			depth++;
		else if (is_punct(&body[j], ")") && --depth == 0)
			break;
	}
	TokVec *va = m->nparams - 1 < nargs ? &args[m->nparams - 1] : &(TokVec){0};
	if (!arg_empty(va))
		subst(ex, m, i + 2, j, args, nargs, out);
	return j < to ? j : to - 1;
}

/* Substitutes arguments into body[from..to) of m. */
static void subst(Expander *ex, Macro *m, int from, int to, TokVec *args, int nargs, TokVec *out)
{
	Tok *body = m->toks;
	for (int i = from; i < to; i++) {
		Tok *t = &body[i];
		/* # param */
		if (m->funclike && is_punct(t, "#") && i + 1 < to && param_index(m, &body[i + 1]) >= 0) {
			int pi = param_index(m, &body[i + 1]);
			Tok s = stringize(ex, pi < nargs ? &args[pi] : &(TokVec){0});
			s.space = t->space;
			vec_push(out, s);
			i++;
			continue;
		}
		/* ## rhs */
		if (is_punct(t, "##") && i + 1 < to) {
			Tok *rhs = &body[i + 1];
			int pi = param_index(m, rhs);
			i++;
			if (pi >= 0) {
				TokVec *a = pi < nargs ? &args[pi] : &(TokVec){0};
				/* GNU: ", ## __VA_ARGS__" drops the comma when empty */
				if (m->variadic && pi == m->nparams - 1 && arg_empty(a) && out->n &&
				    is_punct(&out->v[out->n - 1], ",")) {
					out->n--;
					continue;
				}
				if (arg_empty(a)) {
					continue; /* lhs ## placemarker = lhs */
				}
				paste(ex, out, &a->v[0]);
				for (int k = 1; k < a->n; k++)
					vec_push(out, a->v[k]);
				continue;
			}
			if (is_va_opt(m, body, i, to)) {
				/* lhs ## __VA_OPT__(...): the first token of its result is pasted */
				TokVec vo = {0};
				i = subst_va_opt(ex, m, i, to, args, nargs, &vo);
				if (vo.n) {
					paste(ex, out, &vo.v[0]);
					for (int k = 1; k < vo.n; k++)
						vec_push(out, vo.v[k]);
				}
				vec_free(&vo);
				continue;
			}
			paste(ex, out, rhs);
			continue;
		}
		if (is_va_opt(m, body, i, to)) {
			TokVec vo = {0};
			i = subst_va_opt(ex, m, i, to, args, nargs, &vo);
			/* an empty __VA_OPT__ before ## is a placemarker, as an empty argument is */
			if (!vo.n && i + 1 < to && is_punct(&body[i + 1], "##")) {
				Tok pm = {.kind = TK_PLACEMARKER, .id = -1, .s = "", .space = t->space};
				vec_push(out, pm);
			}
			for (int k = 0; k < vo.n; k++)
				vec_push(out, vo.v[k]);
			vec_free(&vo);
			continue;
		}
		int pi = param_index(m, t);
		if (pi >= 0) {
			TokVec *a = pi < nargs ? &args[pi] : &(TokVec){0};
			bool pasted_next = i + 1 < to && is_punct(&body[i + 1], "##");
			if (pasted_next) {
				if (arg_empty(a)) {
					Tok pm = {.kind = TK_PLACEMARKER, .id = -1, .s = "", .space = t->space};
					vec_push(out, pm);
				} else {
					for (int k = 0; k < a->n; k++) {
						Tok c = a->v[k];
						if (!k)
							c.space = t->space;
						vec_push(out, c);
					}
				}
			} else {
				TokVec exp = {0};
				expand_list(ex, a->v, a->n, &exp);
				for (int k = 0; k < exp.n; k++) {
					Tok c = exp.v[k];
					if (!k)
						c.space = t->space;
					vec_push(out, c);
				}
				vec_free(&exp);
			}
			continue;
		}
		vec_push(out, *t);
	}
}

/* Pops a token from the input stack, skipping nothing. */
static bool pop(TokVec *in, Tok *t)
{
	if (!in->n)
		return false;
	*t = in->v[--in->n];
	return true;
}

/* Copies a balanced parenthesised group from input to output unexpanded
 * (the operand of defined / __has_include). */
static void copy_group(TokVec *in, TokVec *out)
{
	if (!in->n || !is_punct(&in->v[in->n - 1], "(")) {
		Tok t;
		if (pop(in, &t))
			vec_push(out, t);
		return;
	}
	int depth = 0;
	Tok t;
	while (pop(in, &t)) {
		vec_push(out, t);
		if (is_punct(&t, "("))
			depth++;
		else if (is_punct(&t, ")") && --depth == 0)
			return;
	}
}

static void expand_stack(Expander *ex, TokVec *in, TokVec *out)
{
	MacroTable *mt = ex->mt;
	Tok t;
	while (pop(in, &t)) {
		if (--ex->budget < 0 || ex->err) {
			if (!ex->err)
				ex->err = "macro expansion too large";
			return;
		}
		if (t.kind != TK_IDENT) {
			vec_push(out, t);
			continue;
		}
		if (ex->in_if && (t.id == id_defined || t.id == id_has_include || t.id == id_has_include_next)) {
			vec_push(out, t);
			copy_group(in, out);
			continue;
		}
		if (!mt->unknown_default && (t.id == id_line || t.id == id_include_level ||
					     t.id == id_counter || t.id == id_file) &&
		    !lookup(mt, t.id)) {
			/* GCC's dynamic macros, meaningful only in a real walk */
			Tok r = {.kind = TK_NUM, .id = -1, .space = t.space};
			char buf[64];
			if (t.id == id_file) {
				r.kind = TK_STR;
				snprintf(buf, sizeof(buf), "\"%.60s\"", mt->file ? mt->file : "");
			} else {
				snprintf(buf, sizeof(buf), "%ld",
					 t.id == id_line ? (long)mt->line
					 : t.id == id_include_level ? (long)mt->include_level
					 : (long)mt->counter++);
			}
			r.s = arena_strndup(&mt->arena, buf, strlen(buf));
			r.len = (uint32_t)strlen(buf);
			vec_push(out, r);
			continue;
		}
		Macro *m = lookup(mt, t.id);
		bool usable = m && (m->state == TRI_TRUE || (ex->maybe && m->state == TRI_UNKNOWN && m->body));
		if (!usable || hs_has(t.hs, t.id)) {
			vec_push(out, t);
			continue;
		}
		parse_macro(mt, m);
		if (!m->funclike) {
			TokVec body = {0};
			subst(ex, m, 0, m->ntoks, NULL, 0, &body);
			const int *hs = hs_add(&mt->arena, t.hs, t.id);
			for (int i = 0; i < body.n; i++) {
				body.v[i].hs = hs_union(&mt->arena, body.v[i].hs, hs);
				if (!i)
					body.v[i].space = t.space;
			}
			push_back(in, body.v, body.n);
			vec_free(&body);
			continue;
		}
		if (!in->n || !is_punct(&in->v[in->n - 1], "(")) {
			vec_push(out, t);
			continue;
		}
		/* collect arguments */
		Tok lp;
		pop(in, &lp);
		VEC(TokVec) args = {0};
		TokVec cur = {0};
		int depth = 0;
		Tok rp = {0};
		bool closed = false;
		Tok a;
		while (pop(in, &a)) {
			if (is_punct(&a, "(")) {
				depth++;
			} else if (is_punct(&a, ")")) {
				if (depth == 0) {
					rp = a;
					closed = true;
					break;
				}
				depth--;
			} else if (is_punct(&a, ",") && depth == 0 &&
				   !(m->variadic && args.n >= m->nparams - 1)) {
				vec_push(&args, cur);
				cur = (TokVec){0};
				continue;
			}
			vec_push(&cur, a);
		}
		vec_push(&args, cur);
		if (!closed) {
			ex->err = "unterminated argument list invoking macro";
			for (int i = 0; i < args.n; i++)
				vec_free(&args.v[i]);
			vec_free(&args);
			return;
		}
		TokVec body = {0};
		subst(ex, m, 0, m->ntoks, args.v, args.n, &body);
		ex->budget -= body.n; /* what an expansion produces counts too */
		if (ex->budget < 0 && !ex->err)
			ex->err = "macro expansion too large";
		if (ex->err) {
			vec_free(&body);
			for (int i = 0; i < args.n; i++)
				vec_free(&args.v[i]);
			vec_free(&args);
			return;
		}
		const int *hs = hs_add(&mt->arena, hs_intersect(&mt->arena, t.hs, rp.hs), t.id);
		int kept = 0;
		for (int i = 0; i < body.n; i++) {
			if (body.v[i].kind == TK_PLACEMARKER)
				continue;
			Tok c = body.v[i];
			c.hs = hs_union(&mt->arena, c.hs, hs);
			if (!kept)
				c.space = t.space;
			body.v[kept++] = c;
		}
		push_back(in, body.v, kept);
		vec_free(&body);
		for (int i = 0; i < args.n; i++)
			vec_free(&args.v[i]);
		vec_free(&args);
	}
}

static void expand_list(Expander *ex, const Tok *in, int n, TokVec *out)
{
	if (ex->err)
		return;
	if (++ex->depth > MAX_NESTING) {
		ex->err = "macro arguments nested too deeply";
		ex->depth--;
		return;
	}
	TokVec stack = {0};
	push_back(&stack, in, n);
	expand_stack(ex, &stack, out);
	vec_free(&stack);
	ex->depth--;
}

/* ---- evaluation ---- */

typedef struct {
	int64_t v;
	bool uns;
	bool unknown;
} Val;

typedef struct {
	Expander *ex;
	Tok *t;
	int n, pos;
	const char *err;
	int depth; /* nesting of parentheses and unary operators */
} Parser;

static Val known(int64_t v)
{
	return (Val){v, false, false};
}

static Val unknown(void)
{
	return (Val){0, false, true};
}

static Tok *peek(Parser *p)
{
	return p->pos < p->n ? &p->t[p->pos] : NULL;
}

static bool accept(Parser *p, const char *op)
{
	Tok *t = peek(p);
	if (t && is_punct(t, op)) {
		p->pos++;
		return true;
	}
	return false;
}

static void fail(Parser *p, const char *msg)
{
	if (!p->err)
		p->err = msg;
	p->pos = p->n;
}

static Val parse_expr(Parser *p, bool eval);

static Val parse_number(Parser *p, const Tok *t)
{
	const char *s = t->s, *end = t->s + t->len;
	uint64_t v = 0;
	int base = 10;
	if (end - s > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (end - s > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	else if (s[0] == '0')
		base = 8;
	for (; s < end; s++) {
		int d;
		char c = *s;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f' && base == 16)
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F' && base == 16)
			d = c - 'A' + 10;
		else
			break;
		if (d >= base) {
			fail(p, "invalid digit in integer constant");
			return unknown();
		}
		v = v * (uint64_t)base + (uint64_t)d;
	}
	bool uns = false;
	for (; s < end; s++) {
		if (*s == 'u' || *s == 'U')
			uns = true;
		else if (*s != 'l' && *s != 'L') {
			fail(p, "invalid integer constant in #if");
			return unknown();
		}
	}
	if (v > INT64_MAX)
		uns = true;
	return (Val){(int64_t)v, uns, false};
}

static Val parse_char(const Tok *t, bool unsigned_char)
{
	const char *s = memchr(t->s, '\'', t->len);
	if (!s)
		return unknown();
	s++;
	uint64_t v = 0;
	if (*s == '\\') {
		s++;
		switch (*s) {
		case 'n': v = '\n'; break;
		case 't': v = '\t'; break;
		case 'r': v = '\r'; break;
		case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
			for (int k = 0; k < 3 && *s >= '0' && *s <= '7'; k++, s++)
				v = v * 8 + (uint64_t)(*s - '0');
			break;
		case 'x':
			for (s++; (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F'); s++)
				v = v * 16 + (uint64_t)(*s <= '9' ? *s - '0' : (*s | 32) - 'a' + 10);
			break;
		case 'a': v = 7; break;
		case 'b': v = 8; break;
		case 'f': v = 12; break;
		case 'v': v = 11; break;
		default: v = (unsigned char)*s; break;
		}
	} else {
		v = (unsigned char)*s;
	}
	/* a char constant is an int holding one char, signed unless the
	 * compiler says chars are unsigned */
	v &= 0xff;
	return known(unsigned_char ? (int64_t)v : (int64_t)(int8_t)v);
}

/* Header name inside __has_include( ... ): "x.h" or < tokens >. */
static char *header_operand(Parser *p, bool *angled)
{
	Tok *t = peek(p);
	if (!t)
		return NULL;
	if (t->kind == TK_STR && t->s[0] == '"') {
		p->pos++;
		*angled = false;
		return xstrndup(t->s + 1, t->len >= 2 ? t->len - 2 : 0);
	}
	if (is_punct(t, "<")) {
		StrBuf sb = {0};
		p->pos++;
		bool first = true;
		while ((t = peek(p)) && !is_punct(t, ">")) {
			if (t->space && !first)
				sb_addc(&sb, ' ');
			sb_add(&sb, t->s, t->len);
			first = false;
			p->pos++;
		}
		if (!t) {
			free(sb.buf);
			return NULL;
		}
		p->pos++;
		*angled = true;
		sb_str(&sb);
		return sb.buf;
	}
	return NULL;
}

static void skip_group(Parser *p)
{
	if (!accept(p, "("))
		return;
	int depth = 1;
	while (p->pos < p->n && depth) {
		Tok *t = &p->t[p->pos++];
		if (is_punct(t, "("))
			depth++;
		else if (is_punct(t, ")"))
			depth--;
	}
}

static Val parse_primary_1(Parser *p, bool eval);

/* Bounded recursion: a hostile #if must not overflow the stack. */
static Val nested(Parser *p, bool eval, Val (*parse)(Parser *, bool))
{
	if (++p->depth > MAX_NESTING) {
		fail(p, "#if expression nested too deeply");
		p->depth--;
		return unknown();
	}
	Val v = parse(p, eval);
	p->depth--;
	return v;
}

static Val parse_primary(Parser *p, bool eval)
{
	return nested(p, eval, parse_primary_1);
}

static Val parse_primary_1(Parser *p, bool eval)
{
	Tok *t = peek(p);
	if (!t) {
		fail(p, "#if with no expression");
		return unknown();
	}
	p->pos++;
	if (is_punct(t, "(")) {
		Val v = parse_expr(p, eval);
		if (!accept(p, ")"))
			fail(p, "missing ')' in expression");
		return v;
	}
	if (t->kind == TK_NUM)
		return parse_number(p, t);
	if (t->kind == TK_CHAR)
		return parse_char(t, mt_defined(p->ex->mt, "__CHAR_UNSIGNED__", 17) == TRI_TRUE);
	if (t->kind == TK_IDENT) {
		MacroTable *mt = p->ex->mt;
		if (t->id == id_defined) {
			bool paren = accept(p, "(");
			Tok *n = peek(p);
			if (!n || n->kind != TK_IDENT) {
				fail(p, "operator \"defined\" requires an identifier");
				return unknown();
			}
			p->pos++;
			if (paren && !accept(p, ")"))
				fail(p, "missing ')' after \"defined\"");
			Tri s = state_of(mt, n->id);
			if (!lookup(mt, n->id) && (n->id == id_has_include || n->id == id_has_include_next))
				s = TRI_TRUE;
			if (!mt->unknown_default && !lookup(mt, n->id) &&
			    (n->id == id_line || n->id == id_file || n->id == id_include_level ||
			     n->id == id_counter))
				s = TRI_TRUE;
			return s == TRI_UNKNOWN ? unknown() : known(s == TRI_TRUE);
		}
		if (t->id == id_has_include || t->id == id_has_include_next) {
			if (!accept(p, "(")) {
				fail(p, "missing '(' after __has_include");
				return unknown();
			}
			bool angled = false;
			char *name = header_operand(p, &angled);
			if (!name) {
				/* not a header-name: macro-expand the operand first */
				int start = p->pos, depth = 0;
				while (p->pos < p->n) {
					Tok *c = &p->t[p->pos];
					if (is_punct(c, "("))
						depth++;
					else if (is_punct(c, ")") && depth-- == 0)
						break;
					p->pos++;
				}
				TokVec exp = {0};
				expand_list(p->ex, p->t + start, p->pos - start, &exp);
				Parser sub = {.ex = p->ex, .t = exp.v, .n = exp.n};
				name = header_operand(&sub, &angled);
				if (sub.pos != sub.n) {
					free(name);
					name = NULL;
				}
				vec_free(&exp);
			}
			if (!name || !accept(p, ")")) {
				free(name);
				fail(p, "operator \"__has_include\" requires a header name");
				return unknown();
			}
			int r = mt->has_include ? mt->has_include(mt->has_include_ctx, name, angled,
								   t->id == id_has_include_next)
						: -1;
			free(name);
			return r < 0 ? unknown() : known(r);
		}
		/* An identifier left after expansion: 0 when the configuration
		 * is known, unknown otherwise.  __has_attribute() and friends
		 * are compiler queries hdrslim cannot answer. */
		bool call = peek(p) && is_punct(peek(p), "(");
		Tri s = state_of(mt, t->id);
		bool query = t->len > 6 && memcmp(t->s, "__has_", 6) == 0;
		if (call)
			skip_group(p);
		if (query || s == TRI_UNKNOWN)
			return unknown();
		if (call) {
			fail(p, "missing binary operator before token \"(\"");
			return unknown();
		}
		return known(0);
	}
	if (is_punct(t, "-") || is_punct(t, "+") || is_punct(t, "~") || is_punct(t, "!")) {
		Val v = parse_primary(p, eval);
		if (v.unknown)
			return v;
		switch (t->s[0]) {
		case '-': v.v = (int64_t)(0 - (uint64_t)v.v); break;
		case '~': v.v = ~v.v; break;
		case '!': v.v = !v.v; v.uns = false; break;
		}
		return v;
	}
	fail(p, "token is not valid in preprocessor expressions");
	return unknown();
}

static int prec(const Tok *t)
{
	static const struct { const char *op; int prec; } ops[] = {
		{"*", 10}, {"/", 10}, {"%", 10}, {"+", 9}, {"-", 9}, {"<<", 8}, {">>", 8},
		{"<", 7}, {">", 7}, {"<=", 7}, {">=", 7}, {"==", 6}, {"!=", 6},
		{"&", 5}, {"^", 4}, {"|", 3}, {"&&", 2}, {"||", 1},
	};
	if (!t || t->kind != TK_PUNCT)
		return -1;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (is_punct(t, ops[i].op))
			return ops[i].prec;
	return -1;
}

static Val binop(Parser *p, const Tok *op, Val a, Val b, bool eval)
{
	if (a.unknown || b.unknown)
		return unknown();
	bool uns = a.uns || b.uns;
	uint64_t ua = (uint64_t)a.v, ub = (uint64_t)b.v;
	Val r = {0, uns, false};
	const char *o = op->s;
	switch (o[0]) {
	case '*': r.v = (int64_t)(ua * ub); break;
	case '/':
	case '%':
		if (b.v == 0) {
			if (eval)
				fail(p, "division by zero in #if");
			return unknown();
		}
		if (uns)
			r.v = (int64_t)(o[0] == '/' ? ua / ub : ua % ub);
		else if (a.v == INT64_MIN && b.v == -1)
			r.v = o[0] == '/' ? INT64_MIN : 0;
		else
			r.v = o[0] == '/' ? a.v / b.v : a.v % b.v;
		break;
	case '+': r.v = (int64_t)(ua + ub); break;
	case '-': r.v = (int64_t)(ua - ub); break;
	case '<':
		if (o[1] == '<') {
			r.uns = a.uns;
			r.v = b.v >= 64 || b.v < 0 ? 0 : (int64_t)(ua << b.v);
		} else {
			r.uns = false;
			r.v = uns ? (o[1] == '=' ? ua <= ub : ua < ub) : (o[1] == '=' ? a.v <= b.v : a.v < b.v);
		}
		break;
	case '>':
		if (o[1] == '>') {
			r.uns = a.uns;
			if (b.v >= 64 || b.v < 0)
				r.v = a.uns || a.v >= 0 ? 0 : -1;
			else
				r.v = a.uns ? (int64_t)(ua >> b.v) : a.v >> b.v;
		} else {
			r.uns = false;
			r.v = uns ? (o[1] == '=' ? ua >= ub : ua > ub) : (o[1] == '=' ? a.v >= b.v : a.v > b.v);
		}
		break;
	case '=': r.uns = false; r.v = a.v == b.v; break;
	case '!': r.uns = false; r.v = a.v != b.v; break;
	case '&': r.v = a.v & b.v; break;
	case '^': r.v = a.v ^ b.v; break;
	case '|': r.v = a.v | b.v; break;
	}
	return r;
}

static Val truth(Val v)
{
	return v.unknown ? v : known(v.v != 0);
}

static Val parse_binary(Parser *p, int min_prec, bool eval)
{
	Val lhs = parse_primary(p, eval);
	for (;;) {
		Tok *op = peek(p);
		int pr = prec(op);
		if (pr < min_prec || pr < 0)
			return lhs;
		p->pos++;
		if (is_punct(op, "&&") || is_punct(op, "||")) {
			bool is_and = op->s[0] == '&';
			/* the right side is evaluated only when the left does not decide */
			bool decided = !lhs.unknown && (is_and ? lhs.v == 0 : lhs.v != 0);
			Val rhs = parse_binary(p, pr + 1, eval && !decided);
			if (decided)
				lhs = known(!is_and ? 1 : 0);
			else if (!rhs.unknown && (is_and ? rhs.v == 0 : rhs.v != 0))
				lhs = known(is_and ? 0 : 1);
			else if (lhs.unknown || rhs.unknown)
				lhs = unknown();
			else
				lhs = truth(rhs);
			continue;
		}
		Val rhs = parse_binary(p, pr + 1, eval);
		lhs = binop(p, op, lhs, rhs, eval);
	}
}

static Val parse_cond_1(Parser *p, bool eval);

static Val parse_cond(Parser *p, bool eval)
{
	return nested(p, eval, parse_cond_1);
}

static Val parse_cond_1(Parser *p, bool eval)
{
	Val c = parse_binary(p, 1, eval);
	if (!accept(p, "?"))
		return c;
	bool take_a = c.unknown || c.v;
	bool take_b = c.unknown || !c.v;
	Val a = parse_expr(p, eval && take_a);
	if (!accept(p, ":")) {
		fail(p, "'?' without following ':'");
		return unknown();
	}
	Val b = parse_cond(p, eval && take_b);
	if (!c.unknown)
		return c.v ? a : b;
	if (!a.unknown && !b.unknown && a.v == b.v)
		return a;
	return unknown();
}

static Val parse_expr(Parser *p, bool eval)
{
	Val v = parse_cond(p, eval);
	while (accept(p, ","))
		v = parse_cond(p, eval);
	return v;
}

/* The token budget of one expansion: at most a million, and never more
 * than the table has left. */
static long budget_of(const MacroTable *mt)
{
	return mt->work_left < WORK_PER_EXPANSION ? mt->work_left : WORK_PER_EXPANSION;
}

static void charge(MacroTable *mt, long budget_given, const Expander *ex)
{
	long used = budget_given - (ex->budget > 0 ? ex->budget : 0);
	mt->work_left = mt->work_left > used ? mt->work_left - used : 0;
}

Tri mt_eval_if(MacroTable *mt, const char *text, size_t len, const char **err)
{
	long given = budget_of(mt);
	Expander ex = {.mt = mt, .in_if = true, .budget = given, .paste_budget = 1 << 24};
	TokVec in = {0}, out = {0};
	tokenize(mt, text, len, &in);
	expand_list(&ex, in.v, in.n, &out);
	charge(mt, given, &ex);
	*err = ex.err;
	Tri r = TRI_UNKNOWN;
	if (!ex.err) {
		Parser p = {.ex = &ex, .t = out.v, .n = out.n};
		Val v = parse_expr(&p, true);
		if (!p.err && p.pos < p.n)
			p.err = "missing binary operator in #if expression";
		if (p.err)
			*err = p.err;
		else
			r = v.unknown ? TRI_UNKNOWN : v.v ? TRI_TRUE : TRI_FALSE;
	}
	vec_free(&in);
	vec_free(&out);
	return r;
}

char *mt_expand_include(MacroTable *mt, const char *text, size_t len, bool *angled)
{
	long given = budget_of(mt);
	Expander ex = {.mt = mt, .in_if = false, .maybe = mt->unknown_default, .budget = given,
		       .paste_budget = 1 << 24};
	TokVec in = {0}, out = {0};
	tokenize(mt, text, len, &in);
	expand_list(&ex, in.v, in.n, &out);
	charge(mt, given, &ex);
	char *r = NULL;
	if (!ex.err && out.n) {
		Parser p = {.ex = &ex, .t = out.v, .n = out.n};
		r = header_operand(&p, angled);
		if (p.pos != p.n) {
			free(r);
			r = NULL;
		}
	}
	vec_free(&in);
	vec_free(&out);
	return r;
}
