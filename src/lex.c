/*
 * lex.c — one linear pass per file, no allocation per token.
 *
 * The scanner only needs to know where directives are, so ordinary text is
 * skipped with a class-table loop that stops at the few bytes that matter:
 * newline, '/', quotes, '#', backslash and NUL.  A '#' that is the first
 * token of a line starts a directive; its logical line (continuations
 * spliced, comments turned into one space, whitespace collapsed) is
 * collected and parsed into a Directive.  Afterwards a second pass over the
 * directives links each conditional group (#if ... #elif ... #endif) so the
 * preprocessors can jump over a false branch in one step, and the classic
 * include guard is recognised the way GCC's multiple-include optimisation
 * does: #ifndef G / #if !defined(G) as the first token of the file, its
 * #endif as the last, no #else, and #define G inside.
 */
#include "lex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

enum { C_ORD, C_NL, C_WS, C_SLASH, C_QUOTE, C_HASH, C_BSLASH, C_NUL };

static unsigned char cls[256];

static void init_classes(void)
{
	if (cls['\n'])
		return;
	cls[(unsigned char)' '] = C_WS;
	cls['\t'] = C_WS;
	cls['\f'] = C_WS;
	cls['\v'] = C_WS;
	cls['\r'] = C_WS;
	cls['/'] = C_SLASH;
	cls['"'] = C_QUOTE;
	cls['\''] = C_QUOTE;
	cls['#'] = C_HASH;
	cls['\\'] = C_BSLASH;
	cls[0] = C_NUL;
	cls['\n'] = C_NL; /* last: marks the table ready */
}

typedef struct {
	const char *p, *end;
	uint32_t line;
	LexScratch *s;
	FactsError errors[FACTS_MAX_ERRORS];
	int nerrors;
	bool saw_nul;
	bool pragma_like; /* a comment that may be a pragma (see Facts.directives_only) */
} Lexer;

static void add_error(Lexer *lx, int kind, uint32_t line)
{
	if (lx->nerrors < FACTS_MAX_ERRORS)
		lx->errors[lx->nerrors++] = (FactsError){.kind = (uint8_t)kind, .line = line};
}

static void note_nul(Lexer *lx)
{
	if (!lx->saw_nul) {
		lx->saw_nul = true;
		add_error(lx, FE_NUL, lx->line);
	}
}

/* p is just past a comment's opener. */
static void note_pragma_like(Lexer *lx, const char *p)
{
	if (text_pragma_start(p, lx->end))
		lx->pragma_like = true;
}

/* p is just past the opening slash-star. */
static const char *skip_block_comment(Lexer *lx, const char *p)
{
	note_pragma_like(lx, p);
	uint32_t start = lx->line;
	bool closed;
	p = block_comment_end(p, lx->end, &lx->line, &closed);
	if (!closed)
		add_error(lx, FE_UNTERMINATED_COMMENT, start);
	return p;
}

/* p is just past the two slashes; stops at the ending newline. */
static const char *skip_line_comment(Lexer *lx, const char *p)
{
	note_pragma_like(lx, p);
	return line_comment_end(p, lx->end, &lx->line);
}

static const char *scan_literal(Lexer *lx, const char *p, size_t *n);

/* GNU C accepts C++ raw strings: R"d( ... )d", also LR, uR, UR, u8R.
 * q is at the quote. */
static bool is_raw_prefix(const char *buf, const char *q)
{
	if (q == buf || q[-1] != 'R')
		return false;
	const char *start = q - 1;
	if (start > buf && (start[-1] == 'L' || start[-1] == 'U' || start[-1] == 'u'))
		start--;
	else if (start - 1 > buf && start[-1] == '8' && start[-2] == 'u')
		start -= 2;
	return start == buf || !text_ident_char(start[-1]);
}

/* p is at the quote of R"delim( ... )delim" */
static const char *skip_raw_string(Lexer *lx, const char *p)
{
	const char *end = lx->end;
	const char *d = p + 1;
	const char *paren = d;
	while (paren < end && paren - d <= 16 && *paren != '(' && *paren != '"' && *paren != '\\' &&
	       *paren != ' ' && *paren != '\n')
		paren++;
	if (paren >= end || *paren != '(')
		return scan_literal(lx, p, NULL); /* not a raw string after all */
	size_t dl = (size_t)(paren - d);
	for (const char *q = paren + 1; q < end; q++) {
		if (*q == '\n')
			lx->line++;
		else if (*q == ')' && (size_t)(end - q) > dl + 1 && !memcmp(q + 1, d, dl) && q[1 + dl] == '"')
			return q + dl + 2;
	}
	add_error(lx, FE_UNTERMINATED_STRING, lx->line);
	return end;
}

static void line_put(Lexer *lx, size_t *n, char c)
{
	LexScratch *s = lx->s;
	if (*n + 2 > s->cap_line) {
		s->cap_line = s->cap_line ? s->cap_line * 2 : 256;
		s->line = xrealloc(s->line, s->cap_line);
	}
	s->line[(*n)++] = c;
}

/*
 * p is at an opening quote.  Copies the literal to the logical line when
 * n is not NULL.  Stops after the closing quote, or at the newline that
 * ends an unterminated literal (GCC's behaviour too).
 */
static const char *scan_literal(Lexer *lx, const char *p, size_t *n)
{
	const char *end = lx->end;
	char q = *p++;
	if (n)
		line_put(lx, n, q);
	while (p < end) {
		int sp = splice_len(p, end);
		if (sp) {
			lx->line++;
			p += sp;
			continue;
		}
		char c = *p;
		if (c == '\n')
			return p;
		if (c == 0)
			note_nul(lx);
		p++;
		if (n)
			line_put(lx, n, c);
		if (c == q)
			return p;
		if (c == '\\' && p < end && *p != '\n') {
			if (n)
				line_put(lx, n, *p);
			p++;
		}
	}
	return p;
}

/*
 * Collects the logical line of a directive, starting after the '#':
 * continuations spliced, comments replaced by one space, runs of
 * whitespace collapsed, literals kept verbatim.  Returns the position of
 * the newline that ends it (or end); the line is NUL-terminated in
 * lx->s->line and its length stored in *len.
 */
static const char *collect_line(Lexer *lx, const char *p, size_t *len)
{
	const char *end = lx->end;
	size_t n = 0;
	bool space = false;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *stop = nl ? nl : end;
	if (text_plain_line(p, stop)) {
		/* the common case: the logical line is the physical one with its
		 * runs of blanks made one space (none at either end) */
		LexScratch *s = lx->s;
		size_t need = (size_t)(stop - p) + 18; /* room for a 16-byte store */
		if (need > s->cap_line) {
			while (need > s->cap_line)
				s->cap_line = s->cap_line ? s->cap_line * 2 : 256;
			s->line = xrealloc(s->line, s->cap_line);
		}
		char *out = s->line;
		const char *q = p;
#if defined(__SSE2__)
		/* sixteen bytes at a time, a run of text or blanks in one step
		 * (blanks: ' ' and 9..13; no newline comes before stop) */
		for (; stop - q >= 16; q += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
			unsigned ws = (unsigned)_mm_movemask_epi8(
				_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
					     _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(8)),
							   _mm_cmplt_epi8(v, _mm_set1_epi8(14)))));
			if (ws == 0xffffu) {
				space = true;
				continue;
			}
			for (unsigned i = 0; i < 16;) {
				unsigned rest = ws >> i;
				if (rest & 1) {
					i += (unsigned)__builtin_ctz(~rest);
					space = true;
					continue;
				}
				unsigned run = rest ? (unsigned)__builtin_ctz(rest) : 16 - i;
				if (space && n)
					out[n++] = ' ';
				space = false;
				if (run == 16)
					_mm_storeu_si128((__m128i *)(void *)(out + n), v);
				else
					memcpy(out + n, q + i, run);
				n += run;
				i += run;
			}
		}
#endif
		for (; q < stop; q++) {
			unsigned char c = (unsigned char)*q;
			if (cls[c] == C_WS) {
				space = true;
				continue;
			}
			if (space && n)
				out[n++] = ' ';
			space = false;
			out[n++] = (char)c;
		}
		out[n] = 0;
		*len = n;
		return stop;
	}
	while (p < end) {
		unsigned char c = (unsigned char)*p;
		switch (cls[c]) {
		case C_NL:
			goto done;
		case C_NUL:
			note_nul(lx);
			/* fallthrough */
		case C_WS:
			space = true;
			p++;
			continue;
		case C_BSLASH: {
			int sp = splice_len(p, end);
			if (sp) {
				lx->line++;
				p += sp;
				continue;
			}
			break;
		}
		case C_SLASH:
			if (p + 1 < end && p[1] == '*') {
				p = skip_block_comment(lx, p + 2);
				space = true;
				continue;
			}
			if (p + 1 < end && p[1] == '/') {
				p = skip_line_comment(lx, p + 2);
				goto done;
			}
			break;
		case C_QUOTE:
			if (space && n)
				line_put(lx, &n, ' ');
			space = false;
			p = scan_literal(lx, p, &n);
			continue;
		default:
			break;
		}
		if (space && n)
			line_put(lx, &n, ' ');
		space = false;
		/* copy the run of ordinary bytes in one go */
		const char *run = p + 1;
		while (run < end && cls[(unsigned char)*run] == C_ORD)
			run++;
		size_t len = (size_t)(run - p);
		LexScratch *s = lx->s;
		if (n + len + 2 > s->cap_line) {
			while (n + len + 2 > s->cap_line)
				s->cap_line = s->cap_line ? s->cap_line * 2 : 256;
			s->line = xrealloc(s->line, s->cap_line);
		}
		memcpy(s->line + n, p, len);
		n += len;
		p = run;
	}
done:
	if (!lx->s->line)
		line_put(lx, &n, 0), n = 0;
	lx->s->line[n] = 0;
	*len = n;
	return p;
}

static uint32_t put_str(Lexer *lx, const char *str, size_t n)
{
	LexScratch *s = lx->s;
	if (s->strs_len + n + 1 > s->cap_strs) {
		size_t c = s->cap_strs ? s->cap_strs : 4096;
		while (c < s->strs_len + n + 1)
			c *= 2;
		s->strs = xrealloc(s->strs, c);
		s->cap_strs = c;
	}
	uint32_t off = (uint32_t)s->strs_len;
	memcpy(s->strs + off, str, n);
	s->strs[off + n] = 0;
	s->strs_len += n + 1;
	return off;
}

static Directive *new_dir(Lexer *lx, int kind, uint32_t line)
{
	LexScratch *s = lx->s;
	if (s->ndirs == s->cap_dirs) {
		s->cap_dirs = s->cap_dirs ? s->cap_dirs * 2 : 256;
		s->dirs = xrealloc(s->dirs, s->cap_dirs * sizeof(Directive));
	}
	Directive *d = &s->dirs[s->ndirs++];
	memset(d, 0, sizeof(*d));
	d->kind = (uint8_t)kind;
	d->line = line;
	d->next = -1;
	return d;
}

static size_t ident_len(const char *s)
{
	size_t n = 0;
	if (!text_ident_start(s[0]))
		return 0;
	while (text_ident_char(s[n]))
		n++;
	return n;
}

static const struct {
	const char *name;
	int kind;
	size_t len;
} directive_names[] = {
#define D(name, kind) {name, kind, sizeof(name) - 1}
	D("define", D_DEFINE), D("include", D_INCLUDE), D("if", D_IF), D("ifdef", D_IFDEF),
	D("ifndef", D_IFNDEF), D("endif", D_ENDIF), D("else", D_ELSE), D("elif", D_ELIF),
	D("undef", D_UNDEF), D("include_next", D_INCLUDE_NEXT), D("import", D_INCLUDE),
	D("elifdef", D_ELIFDEF), D("elifndef", D_ELIFNDEF), D("pragma", D_PRAGMA_ONCE),
	D("error", D_ERROR), D("line", D_LINE),
#undef D
};

/* Parses the collected logical line of a directive that began on `line`. */
static void parse_directive(Lexer *lx, uint32_t line, const char *l, size_t len)
{
	const char *lend = l + len;
	while (*l == ' ')
		l++;
	size_t n = ident_len(l);
	if (!n)
		return; /* null directive, linemarker or junk: no effect on includes */
	int kind = -1;
	/* most frequent first: define, include, if* */
	for (size_t i = 0; i < sizeof(directive_names) / sizeof(directive_names[0]); i++)
		if (directive_names[i].len == n && memcmp(directive_names[i].name, l, n) == 0) {
			kind = directive_names[i].kind;
			break;
		}
	if (kind < 0)
		return; /* #ident, #warning, #assert ...: irrelevant here */
	const char *rest = l + n;
	while (*rest == ' ')
		rest++;
	size_t rest_len = (size_t)(lend - rest);

	if (kind == D_PRAGMA_ONCE) {
		if (strncmp(rest, "once", 4) != 0 || text_ident_char(rest[4]))
			return;
		new_dir(lx, D_PRAGMA_ONCE, line);
		return;
	}
	Directive *d = new_dir(lx, kind, line);
	switch (kind) {
	case D_INCLUDE:
	case D_INCLUDE_NEXT: {
		char close = rest[0] == '"' ? '"' : rest[0] == '<' ? '>' : 0;
		const char *q = close ? memchr(rest + 1, close, rest_len ? rest_len - 1 : 0) : NULL;
		if (q) {
			/* the header name is all that matters; text is the name */
			d->flags = close == '"' ? DF_QUOTED : DF_ANGLED;
			d->name_off = put_str(lx, rest + 1, (size_t)(q - rest - 1));
			d->name_len = (uint32_t)(q - rest - 1);
			d->text_off = d->name_off;
			d->text_len = d->name_len;
		} else {
			d->flags = DF_COMPUTED;
			d->name_off = put_str(lx, "", 0);
			d->text_off = put_str(lx, rest, rest_len);
			d->text_len = (uint32_t)rest_len;
		}
		break;
	}
	case D_DEFINE: {
		size_t m = ident_len(rest);
		if (!m) {
			d->flags = DF_BADNAME;
			d->name_off = put_str(lx, "", 0);
			d->text_off = d->name_off;
			d->args_off = d->name_off;
			break;
		}
		d->name_off = put_str(lx, rest, m);
		d->name_len = (uint32_t)m;
		const char *body = rest + m;
		if (*body == '(') {
			const char *close = memchr(body, ')', (size_t)(lend - body));
			if (!close)
				close = lend;
			d->flags |= DF_FUNCLIKE;
			d->args_off = put_str(lx, body + 1, (size_t)(close - body - 1));
			d->args_len = (uint32_t)(close - body - 1);
			body = close < lend ? close + 1 : lend;
		} else {
			d->args_off = put_str(lx, "", 0);
		}
		while (*body == ' ')
			body++;
		d->text_off = put_str(lx, body, (size_t)(lend - body));
		d->text_len = (uint32_t)(lend - body);
		break;
	}
	case D_UNDEF:
	case D_IFDEF:
	case D_IFNDEF:
	case D_ELIFDEF:
	case D_ELIFNDEF: {
		size_t m = ident_len(rest);
		if (!m)
			d->flags = DF_BADNAME;
		d->name_off = put_str(lx, rest, m);
		d->name_len = (uint32_t)m;
		d->text_off = d->name_off; /* only the name matters */
		d->text_len = d->name_len;
		break;
	}
	case D_IF:
	case D_ELIF:
	case D_ERROR:
	case D_LINE:
		d->name_off = put_str(lx, "", 0);
		d->text_off = put_str(lx, rest, rest_len);
		d->text_len = (uint32_t)rest_len;
		break;
	default: /* else, endif */
		d->name_off = d->text_off = put_str(lx, "", 0);
		break;
	}
}

static bool is_if(int kind)
{
	return kind == D_IF || kind == D_IFDEF || kind == D_IFNDEF;
}

static bool is_branch(int kind)
{
	return kind == D_ELIF || kind == D_ELIFDEF || kind == D_ELIFNDEF || kind == D_ELSE;
}

/* Links conditional groups; records unbalanced ones. */
static void link_groups(Lexer *lx)
{
	LexScratch *s = lx->s;
	int32_t *open = xmalloc((s->ndirs + 1) * sizeof(int32_t)); /* first directive of group */
	int32_t *last = xmalloc((s->ndirs + 1) * sizeof(int32_t)); /* latest branch of group */
	bool *had_else = xcalloc(s->ndirs + 1, 1);
	int depth = 0;
	for (size_t i = 0; i < s->ndirs; i++) {
		Directive *d = &s->dirs[i];
		if (is_if(d->kind)) {
			open[depth] = last[depth] = (int32_t)i;
			had_else[depth] = false;
			depth++;
		} else if (is_branch(d->kind)) {
			if (!depth) {
				add_error(lx, FE_ELSE_WITHOUT_IF, d->line);
				continue;
			}
			if (had_else[depth - 1])
				add_error(lx, FE_ELSE_AFTER_ELSE, d->line);
			if (d->kind == D_ELSE)
				had_else[depth - 1] = true;
			s->dirs[last[depth - 1]].next = (int32_t)i;
			last[depth - 1] = (int32_t)i;
		} else if (d->kind == D_ENDIF) {
			if (!depth) {
				add_error(lx, FE_ENDIF_WITHOUT_IF, d->line);
				continue;
			}
			depth--;
			s->dirs[last[depth]].next = (int32_t)i;
			d->next = open[depth];
		}
	}
	if (depth)
		add_error(lx, FE_UNTERMINATED_IF, s->dirs[open[0]].line);
	while (depth > 0) {
		depth--;
		s->dirs[last[depth]].next = (int32_t)s->ndirs;
	}
	free(open);
	free(last);
	free(had_else);
}

/* "!defined(G)", "!defined G", "! defined ( G )": the guard name, or 0. */
static size_t if_not_defined_name(const char *t, const char **name)
{
	while (*t == ' ')
		t++;
	if (*t++ != '!')
		return 0;
	while (*t == ' ')
		t++;
	if (strncmp(t, "defined", 7) != 0 || text_ident_char(t[7]))
		return 0;
	t += 7;
	while (*t == ' ')
		t++;
	bool paren = *t == '(';
	if (paren)
		t++;
	while (*t == ' ')
		t++;
	size_t n = ident_len(t);
	if (!n)
		return 0;
	const char *after = t + n;
	while (*after == ' ')
		after++;
	if (paren) {
		if (*after++ != ')')
			return 0;
		while (*after == ' ')
			after++;
	}
	if (*after)
		return 0;
	*name = t;
	return n;
}

static bool find_loose_guard(const LexScratch *s)
{
	for (size_t i = 0; i + 1 < s->ndirs; i++) {
		const Directive *d = &s->dirs[i], *n = &s->dirs[i + 1];
		if (d->kind == D_IFNDEF && n->kind == D_DEFINE && d->name_len && d->name_len == n->name_len &&
		    !memcmp(s->strs + d->name_off, s->strs + n->name_off, d->name_len))
			return true;
	}
	return false;
}

const char *facts_next_c_name(const char *t, const char *end)
{
	for (const char *q = t; (q = memmem(q, (size_t)(end - q), ".c", 2)); q += 2)
		if (q + 2 < end && (q[2] == '"' || q[2] == '>'))
			return q;
	return NULL;
}

/* Facts.names_code: the directives that could include a .c file. */
static bool find_names_code(const LexScratch *s)
{
	for (size_t i = 0; i < s->ndirs; i++) {
		const Directive *d = &s->dirs[i];
		const char *t = s->strs + d->name_off;
		if ((d->kind == D_INCLUDE || d->kind == D_INCLUDE_NEXT) && !(d->flags & DF_COMPUTED) &&
		    d->name_len >= 2 && t[d->name_len - 2] == '.' && t[d->name_len - 1] == 'c')
			return true;
		if (d->kind != D_DEFINE)
			continue;
		t = s->strs + d->text_off;
		if (facts_next_c_name(t, t + d->text_len))
			return true;
	}
	return false;
}

static void find_guard(Lexer *lx, Facts *f, bool text_before_first, bool text_after_last)
{
	LexScratch *s = lx->s;
	f->guard = -1;
	if (text_before_first || text_after_last || s->ndirs < 2 || lx->nerrors)
		return;
	Directive *first = &s->dirs[0];
	const char *name = NULL;
	size_t n = 0;
	if (first->kind == D_IFNDEF && !(first->flags & DF_BADNAME)) {
		name = s->strs + first->name_off;
		n = first->name_len;
	} else if (first->kind == D_IF) {
		n = if_not_defined_name(s->strs + first->text_off, &name);
	}
	if (!n)
		return;
	/* the group must be #ifndef ... #endif with the #endif last */
	if (first->next != (int32_t)s->ndirs - 1 || s->dirs[s->ndirs - 1].kind != D_ENDIF)
		return;
	/* and must #define the guard at its top level */
	for (size_t i = 1; i + 1 < s->ndirs; i++) {
		Directive *d = &s->dirs[i];
		if (is_if(d->kind)) {
			i = (size_t)d->next;
			while (i < s->ndirs && s->dirs[i].kind != D_ENDIF)
				i = (size_t)s->dirs[i].next;
			continue;
		}
		if (d->kind == D_DEFINE && d->name_len == n &&
		    memcmp(s->strs + d->name_off, name, n) == 0) {
			f->guard = 0;
			f->guard_name_off = (uint32_t)(name - s->strs);
			f->guard_name_len = (uint32_t)n;
			return;
		}
	}
}

Facts *lex_file(const char *buf, size_t len, LexScratch *scratch)
{
	init_classes();
	Lexer lx = {.p = buf, .end = buf + len, .line = 1, .s = scratch};
	scratch->ndirs = 0;
	scratch->strs_len = 0;
	put_str(&lx, "", 0); /* offset 0 is the empty string */

	const char *p = buf, *end = buf + len;
	bool bol = true;             /* only whitespace/comments so far on this line */
	bool text_before_first = false, text_after_last = false;
	bool code = false;           /* a byte outside directives, blanks and comments */
	while (p < end) {
#if defined(__SSE2__)
		/* Sixteen bytes at a time while there is nothing but ordinary
		 * text, blanks and newlines: count the newlines, and see whether
		 * the last line so far has only blanks (bol) and whether text
		 * came after the last directive. */
		while (end - p >= 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
			unsigned special = (unsigned)_mm_movemask_epi8(_mm_or_si128(
				_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
							  _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
					     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\'')),
							  _mm_cmpeq_epi8(v, _mm_set1_epi8('#')))),
				_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
					     _mm_cmpeq_epi8(v, _mm_setzero_si128()))));
			unsigned nlm = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
			/* blanks: ' ' and \t \v \f \r (9, 11, 12, 13) */
			__m128i ctl = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(8)),
						    _mm_cmplt_epi8(v, _mm_set1_epi8(14)));
			unsigned wsm = (unsigned)_mm_movemask_epi8(
				_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), ctl)) & ~nlm;
			unsigned take = special ? (1u << __builtin_ctz(special)) - 1 : 0xffffu;
			nlm &= take;
			unsigned ordm = take & ~(nlm | wsm);
			lx.line += popcount16(nlm);
			if (ordm)
				text_after_last = code = true;
			if (nlm) {
				unsigned after_last_nl = ~((2u << (31 - __builtin_clz(nlm))) - 1);
				bol = !(ordm & after_last_nl);
			} else if (ordm) {
				bol = false;
			}
			p += special ? __builtin_ctz(special) : 16;
			if (special)
				break;
		}
		if (p >= end)
			break;
#endif
		unsigned char c = (unsigned char)*p;
		switch (cls[c]) {
		case C_ORD:
			bol = false;
			text_after_last = code = true;
			p++;
			while (cls[(unsigned char)*p] == C_ORD)
				p++;
			continue;
		case C_NL:
			lx.line++;
			bol = true;
			p++;
			continue;
		case C_WS:
			p++;
			continue;
		case C_NUL:
			if (p >= end)
				goto out;
			note_nul(&lx);
			p++;
			continue;
		case C_BSLASH: {
			int sp = splice_len(p, end);
			if (sp) {
				lx.line++;
				p += sp;
				continue;
			}
			break;
		}
		case C_SLASH:
			if (p + 1 < end && p[1] == '*') {
				p = skip_block_comment(&lx, p + 2);
				continue;
			}
			if (p + 1 < end && p[1] == '/') {
				p = skip_line_comment(&lx, p + 2);
				continue;
			}
			break;
		case C_QUOTE:
			bol = false;
			text_after_last = code = true;
			if (*p == '"' && is_raw_prefix(buf, p))
				p = skip_raw_string(&lx, p);
			else
				p = scan_literal(&lx, p, NULL);
			continue;
		case C_HASH:
			if (bol) {
				uint32_t line = lx.line;
				size_t n;
				if (scratch->ndirs == 0 && text_after_last)
					text_before_first = true;
				p = collect_line(&lx, p + 1, &n);
				size_t before = scratch->ndirs;
				parse_directive(&lx, line, scratch->line, n);
				if (scratch->ndirs != before)
					text_after_last = false;
				continue;
			}
			break;
		}
		bol = false;
		text_after_last = code = true;
		p++;
	}
out:
	if (scratch->ndirs == 0 && text_after_last)
		text_before_first = true;

	Facts tmp = {0};
	lx.s = scratch;
	link_groups(&lx);
	find_guard(&lx, &tmp, text_before_first, text_after_last);

	size_t size = sizeof(Facts) + scratch->ndirs * sizeof(Directive) + scratch->strs_len;
	size = (size + 7) & ~(size_t)7;
	if (size > UINT32_MAX)
		size = UINT32_MAX; /* unreachable for files under 4 GiB of directives */
	Facts *f = xmalloc(size);
	*f = tmp;
	memset((char *)f + size - 8, 0, 8); /* alignment padding: keep it defined */
	f->size = (uint32_t)size;
	f->ndirs = (uint32_t)scratch->ndirs;
	f->strs_len = (uint32_t)scratch->strs_len;
	/* every newline was counted on the way, whatever consumed it */
	f->lines = lx.line - 1 + (len && buf[len - 1] != '\n');
	for (size_t i = 0; i < scratch->ndirs; i++)
		if (scratch->dirs[i].kind == D_PRAGMA_ONCE)
			f->pragma_once = 1;
	f->nerrors = (uint8_t)lx.nerrors;
	f->loose_guard = find_loose_guard(scratch);
	f->names_code = find_names_code(scratch);
	f->directives_only = !code && !lx.pragma_like && !lx.nerrors;
	memcpy(f->errors, lx.errors, sizeof(lx.errors));
	if (scratch->ndirs)
		memcpy(facts_dirs(f), scratch->dirs, scratch->ndirs * sizeof(Directive));
	memcpy((char *)facts_strs(f), scratch->strs, scratch->strs_len);
	return f;
}

void lex_scratch_free(LexScratch *s)
{
	free(s->dirs);
	free(s->strs);
	free(s->line);
	memset(s, 0, sizeof(*s));
}

const char *facts_error_text(int kind)
{
	switch (kind) {
	case FE_UNTERMINATED_COMMENT: return "unterminated comment";
	case FE_UNTERMINATED_IF: return "unterminated conditional directive";
	case FE_ENDIF_WITHOUT_IF: return "#endif without #if";
	case FE_ELSE_WITHOUT_IF: return "#else or #elif without #if";
	case FE_ELSE_AFTER_ELSE: return "#else or #elif after #else";
	case FE_NUL: return "null character(s) in file (binary file?)";
	case FE_UNTERMINATED_STRING: return "unterminated string";
	}
	return "error";
}

int facts_dir_at_line(const Facts *f, uint32_t line)
{
	const Directive *d = facts_dirs(f);
	int i = 0;
	while (i < (int)f->ndirs && d[i].line < line)
		i++;
	return i;
}

char *facts_condition(const Facts *f, int dir, IntVec *chain)
{
	const Directive *d = facts_dirs(f);
	/* per open group: its opening directive and the branch we are in */
	IntVec open = {0}, opener = {0};
	for (int i = 0; i < dir && i < (int)f->ndirs; i++) {
		switch (d[i].kind) {
		case D_IF:
		case D_IFDEF:
		case D_IFNDEF:
			vec_push(&open, i);
			vec_push(&opener, i);
			break;
		case D_ELIF:
		case D_ELIFDEF:
		case D_ELIFNDEF:
		case D_ELSE:
			if (open.n)
				open.v[open.n - 1] = i;
			break;
		case D_ENDIF:
			if (open.n) {
				open.n--;
				opener.n--;
			}
			break;
		default:
			break;
		}
	}
	StrBuf sb = {0};
	for (int k = 0; k < open.n; k++) {
		if (opener.v[k] == f->guard)
			continue;
		if (chain)
			vec_push(chain, open.v[k]);
		/* the branch taken, after every earlier branch of its group was not */
		for (int b = opener.v[k]; b >= 0 && b <= open.v[k] && b < (int)f->ndirs; b = d[b].next) {
			const Directive *c = &d[b];
			bool neg = b != open.v[k];
			if (c->kind == D_ELSE)
				break;
			if (sb.len)
				sb_adds(&sb, " && ");
			const char *name = facts_strs(f) + c->name_off;
			if (c->kind == D_IFDEF || c->kind == D_ELIFDEF)
				sb_addf(&sb, "%sdefined(%.*s)", neg ? "!" : "", (int)c->name_len, name);
			else if (c->kind == D_IFNDEF || c->kind == D_ELIFNDEF)
				sb_addf(&sb, "%sdefined(%.*s)", neg ? "" : "!", (int)c->name_len, name);
			else
				sb_addf(&sb, neg ? "!(%.*s)" : "%.*s", (int)c->text_len, facts_strs(f) + c->text_off);
			if (d[b].next <= b)
				break;
		}
	}
	vec_free(&open);
	vec_free(&opener);
	return sb.buf; /* NULL when empty */
}
