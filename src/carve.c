/*
 * carve.c — declaration extents from the text.  The symbol facts give the
 * line a name is declared on; the extent is found by reading the C
 * around it: backwards to where the previous declaration ended, forwards
 * to the `;` (or function body `}`) at nesting depth zero.
 */
#include "carve.h"

#include <ctype.h>
#include <string.h>

/* A line's text classified after comments are taken out. */
enum LineKind { L_BLANK, L_COMMENT, L_DIRECTIVE, L_CODE };

typedef struct {
	int nlines;
	unsigned char *kind;   /* by line, 1-based */
	bool *continued;       /* the line ends with a backslash */
	char **code;           /* text with comments removed */
} Lines;

static void lines_read(const EditFile *e, Lines *L)
{
	L->nlines = e->nlines;
	L->kind = xcalloc((size_t)e->nlines + 2, 1);
	L->continued = xcalloc((size_t)e->nlines + 2, sizeof(bool));
	L->code = xcalloc((size_t)e->nlines + 2, sizeof(char *));
	bool in_comment = false, in_directive = false;
	for (int n = 1; n <= e->nlines; n++) {
		char *line = edit_line(e, n);
		size_t len = strlen(line);
		bool had_comment = in_comment;
		StrBuf code = {0};
		for (const char *p = line; *p; p++) {
			if (in_comment) {
				if (p[0] == '*' && p[1] == '/') {
					in_comment = false;
					p++;
				}
				continue;
			}
			if (p[0] == '/' && p[1] == '*') {
				in_comment = had_comment = true;
				p++;
				continue;
			}
			if (p[0] == '/' && p[1] == '/') {
				had_comment = true;
				break;
			}
			if (*p == '"' || *p == '\'') {
				char q = *p;
				sb_addc(&code, *p++);
				while (*p && *p != q) {
					if (*p == '\\' && p[1])
						sb_addc(&code, *p++);
					sb_addc(&code, *p++);
				}
				if (!*p)
					break;
			}
			sb_addc(&code, *p);
		}
		sb_addc(&code, 0);
		const char *s = code.buf;
		while (isspace((unsigned char)*s))
			s++;
		L->continued[n] = len && line[len - 1] == '\\';
		if (in_directive)
			L->kind[n] = L_DIRECTIVE;
		else if (*s == '#')
			L->kind[n] = L_DIRECTIVE;
		else if (*s)
			L->kind[n] = L_CODE;
		else
			L->kind[n] = had_comment ? L_COMMENT : L_BLANK;
		in_directive = L->kind[n] == L_DIRECTIVE && L->continued[n];
		L->code[n] = code.buf;
		free(line);
	}
}

static void lines_free(Lines *L)
{
	for (int n = 1; n <= L->nlines; n++)
		free(L->code[n]);
	free(L->code);
	free(L->kind);
	free(L->continued);
}

/* The directive word of a directive line. */
static void dword(const char *code, char *w, size_t cap)
{
	const char *p = code;
	while (isspace((unsigned char)*p) || *p == '#')
		p++;
	size_t k = 0;
	while (k + 1 < cap && isalpha((unsigned char)p[k]))
		k++;
	memcpy(w, p, k);
	w[k] = 0;
}

/* The last non-blank character of a line's code, or 0. */
static char last_char(const char *code)
{
	size_t n = strlen(code);
	while (n && isspace((unsigned char)code[n - 1]))
		n--;
	return n ? code[n - 1] : 0;
}

/* Extent of the C declaration whose name is on line `at`. */
static Span code_extent(const Lines *L, int at)
{
	Span s = {at, at};
	/* back to the end of the previous declaration */
	while (s.first > 1) {
		int p = s.first - 1;
		if (L->kind[p] != L_CODE)
			break;
		char c = last_char(L->code[p]);
		if (c == ';' || c == '}' || c == '{')
			break;
		s.first = p;
	}
	/* forward to `;` at depth 0, or the `}` closing a function body */
	int depth = 0;
	bool body_is_function = false, saw_paren = false;
	for (int n = s.first; n <= L->nlines; n++) {
		s.last = n;
		if (L->kind[n] != L_CODE)
			continue;
		for (const char *p = L->code[n]; *p; p++) {
			if (*p == '(' || *p == '[') {
				depth++;
				saw_paren = true;
			} else if (*p == ')' || *p == ']') {
				depth--;
			} else if (*p == '{') {
				if (depth == 0)
					body_is_function = saw_paren;
				depth++;
			} else if (*p == '}') {
				depth--;
				if (depth == 0 && body_is_function) {
					/* a trailing `;` on the same line belongs to it */
					return s;
				}
			} else if (*p == ';' && depth == 0) {
				return s;
			}
		}
	}
	return s;
}

/* Extent of a #define on line `at` (with its continuation lines). */
static Span macro_extent(const Lines *L, int at)
{
	Span s = {at, at};
	while (s.last < L->nlines && L->continued[s.last])
		s.last++;
	return s;
}

/* Grows s up over the comment lines right above it. */
static void take_comment(const Lines *L, Span *s)
{
	while (s->first > 1 && L->kind[s->first - 1] == L_COMMENT)
		s->first--;
}

static int cmp_span(const void *a, const void *b)
{
	const Span *x = a, *y = b;
	return (x->first > y->first) - (x->first < y->first);
}

bool span_has(const SpanVec *v, int n)
{
	for (int i = 0; i < v->n; i++)
		if (n >= v->v[i].first && n <= v->v[i].last)
			return true;
	return false;
}

static void merge(SpanVec *v, const Lines *L)
{
	qsort(v->v, (size_t)v->n, sizeof(Span), cmp_span);
	int k = 0;
	for (int i = 0; i < v->n; i++) {
		if (k) {
			Span *prev = &v->v[k - 1];
			int gap = prev->last + 1;
			while (gap < v->v[i].first && L->kind[gap] == L_BLANK)
				gap++;
			if (gap >= v->v[i].first) {
				if (v->v[i].last > prev->last)
					prev->last = v->v[i].last;
				continue;
			}
		}
		v->v[k++] = v->v[i];
	}
	v->n = k;
}

bool carve_spans(const EditFile *e, const Symbols *sy, char **names, int n, SpanVec *out, char **err)
{
	Lines L;
	lines_read(e, &L);
	bool ok = true;
	for (int i = 0; i < n && ok; i++) {
		int found = 0;
		for (uint32_t k = 0; k < sy->nprovides; k++) {
			const SymEntry *p = &sym_provides(sy)[k];
			if (p->name_len != strlen(names[i]) || memcmp(sym_name(sy, p), names[i], p->name_len))
				continue;
			if (p->kind == SK_SEED || (int)p->line > L.nlines || !p->line)
				continue;
			Span s = L.kind[p->line] == L_DIRECTIVE ? macro_extent(&L, (int)p->line)
							       : code_extent(&L, (int)p->line);
			/* a struct's member or an enum constant is part of a bigger
			 * declaration: the whole of it moves */
			take_comment(&L, &s);
			vec_push(out, s);
			found++;
		}
		if (!found) {
			*err = xasprintf("%s: declares no '%s'", e->path, names[i]);
			ok = false;
		}
	}
	/* Grow to whole #if groups, innermost first, until stable. */
	for (bool grew = ok; grew && ok;) {
		grew = false;
		merge(out, &L);
		/* the stack of open groups: the line of each #if */
		int stack[64], depth = 0, guard_if = 0;
		for (int l = 1; l <= L.nlines && ok && !grew; l++) {
			if (L.kind[l] != L_DIRECTIVE || (l > 1 && L.kind[l - 1] == L_DIRECTIVE && L.continued[l - 1]))
				continue;
			char w[16];
			dword(L.code[l], w, sizeof(w));
			if (!strncmp(w, "if", 2)) {
				/* the include guard: the first #ifndef of the file */
				if (!guard_if && depth == 0 && !strcmp(w, "ifndef"))
					guard_if = l;
				if (depth < 64)
					stack[depth] = l;
				depth++;
			} else if (!strcmp(w, "endif") && depth > 0) {
				depth--;
				int open = depth < 64 ? stack[depth] : 0;
				if (!open || open == guard_if)
					continue;
				/* the group open..l: does any span sit inside it? */
				bool inside = false, all = true;
				for (int x = open + 1; x < l; x++) {
					bool moved = span_has(out, x);
					inside |= moved;
					if (!moved && (L.kind[x] == L_CODE ||
						       (L.kind[x] == L_DIRECTIVE && strncmp(L.code[x] + strspn(L.code[x], " \t#"), "el", 2) &&
							strncmp(L.code[x] + strspn(L.code[x], " \t#"), "if", 2) &&
							strncmp(L.code[x] + strspn(L.code[x], " \t#"), "endif", 5))))
						all = false;
				}
				if (!inside || (span_has(out, open) && span_has(out, l)))
					continue;
				if (!all) {
					*err = xasprintf("%s:%d: the declarations to move share this #if group "
							 "(up to line %d) with declarations that stay",
							 e->path, open, l);
					ok = false;
					break;
				}
				Span g = {open, l};
				take_comment(&L, &g);
				vec_push(out, g);
				grew = true;
			}
		}
	}
	if (ok)
		merge(out, &L);
	lines_free(&L);
	return ok;
}

char *guard_name_for(const char *rel)
{
	const char *p = !strncmp(rel, "include/", 8) ? rel + 8 : rel;
	StrBuf g = {0};
	sb_addc(&g, '_');
	for (; *p; p++)
		sb_addc(&g, isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_');
	return g.buf;
}

void carve_units(const EditFile *e, SpanVec *out)
{
	Lines L;
	lines_read(e, &L);
	int guard_if = 0, guard_end = 0;
	/* the include guard: the first #ifndef before any code, and its #endif */
	for (int l = 1; l <= L.nlines && !guard_if; l++) {
		if (L.kind[l] == L_CODE)
			break;
		if (L.kind[l] != L_DIRECTIVE)
			continue;
		char w[16];
		dword(L.code[l], w, sizeof(w));
		if (!strcmp(w, "ifndef"))
			guard_if = l;
		else if (strcmp(w, "pragma") && strcmp(w, "include"))
			break;
	}
	if (guard_if) {
		int d = 0;
		for (int l = guard_if; l <= L.nlines; l++) {
			if (L.kind[l] != L_DIRECTIVE || (l > 1 && L.kind[l - 1] == L_DIRECTIVE && L.continued[l - 1]))
				continue;
			char w[16];
			dword(L.code[l], w, sizeof(w));
			if (!strncmp(w, "if", 2))
				d++;
			else if (!strcmp(w, "endif") && --d == 0) {
				guard_end = l;
				break;
			}
		}
	}
	for (int l = 1; l <= L.nlines;) {
		if (l == guard_if || l == guard_end || L.kind[l] == L_BLANK || L.kind[l] == L_COMMENT) {
			l++;
			continue;
		}
		Span s = {l, l};
		if (L.kind[l] == L_DIRECTIVE) {
			char w[16];
			dword(L.code[l], w, sizeof(w));
			if (!strncmp(w, "if", 2)) {
				/* a whole #if group is one unit */
				int d = 0, x = l;
				for (; x <= L.nlines; x++) {
					if (L.kind[x] != L_DIRECTIVE || (x > 1 && L.kind[x - 1] == L_DIRECTIVE && L.continued[x - 1]))
						continue;
					char w2[16];
					dword(L.code[x], w2, sizeof(w2));
					if (!strncmp(w2, "if", 2))
						d++;
					else if (!strcmp(w2, "endif") && --d == 0)
						break;
				}
				s.last = x > L.nlines ? L.nlines : x;
			} else {
				s = macro_extent(&L, l);
			}
		} else {
			s = code_extent(&L, l);
		}
		/* the guard's #define belongs to no unit */
		if (guard_if && s.first == guard_if + 1 && L.kind[s.first] == L_DIRECTIVE) {
			l = s.last + 1;
			continue;
		}
		take_comment(&L, &s);
		vec_push(out, s);
		l = s.last + 1;
	}
	lines_free(&L);
}

bool carve_is_include(const EditFile *e, const Span *s)
{
	for (int n = s->first; n <= s->last; n++) {
		char *l = edit_line(e, n);
		const char *p = l + strspn(l, " \t");
		bool inc = *p == '#' && !strncmp(p + 1 + strspn(p + 1, " \t"), "include", 7);
		bool comment = !strncmp(p, "/*", 2) || *p == '*' || !strncmp(p, "//", 2) || !*p;
		free(l);
		if (inc)
			return true;
		if (!comment)
			return false;
	}
	return false;
}
