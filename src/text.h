/*
 * text.h — byte-level scanning shared by the two tokenizers (lex.c reads
 * directives, decl.c declarations): line splices, newline counts and the
 * ends of comments.  Inline, as they run over every byte of a tree.
 */
#ifndef HDRSLIM_TEXT_H
#define HDRSLIM_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bit 1: starts an identifier; bit 2: continues one (GNU C: $ too). */
static const uint8_t text_ident_class[256] = {
	['$'] = 3, ['_'] = 3,
	['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2,
	['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
	['A'] = 3, ['B'] = 3, ['C'] = 3, ['D'] = 3, ['E'] = 3, ['F'] = 3, ['G'] = 3,
	['H'] = 3, ['I'] = 3, ['J'] = 3, ['K'] = 3, ['L'] = 3, ['M'] = 3, ['N'] = 3,
	['O'] = 3, ['P'] = 3, ['Q'] = 3, ['R'] = 3, ['S'] = 3, ['T'] = 3, ['U'] = 3,
	['V'] = 3, ['W'] = 3, ['X'] = 3, ['Y'] = 3, ['Z'] = 3,
	['a'] = 3, ['b'] = 3, ['c'] = 3, ['d'] = 3, ['e'] = 3, ['f'] = 3, ['g'] = 3,
	['h'] = 3, ['i'] = 3, ['j'] = 3, ['k'] = 3, ['l'] = 3, ['m'] = 3, ['n'] = 3,
	['o'] = 3, ['p'] = 3, ['q'] = 3, ['r'] = 3, ['s'] = 3, ['t'] = 3, ['u'] = 3,
	['v'] = 3, ['w'] = 3, ['x'] = 3, ['y'] = 3, ['z'] = 3,
};

static inline bool text_ident_start(char c)
{
	return text_ident_class[(unsigned char)c] & 1;
}

static inline bool text_ident_char(char c)
{
	return text_ident_class[(unsigned char)c] & 2;
}

/* The end of the run of identifier bytes at p (p itself when there is
 * none).  Sixteen bytes at a time: the byte loop's exit, at a different
 * length for every identifier, was a mispredicted branch per name. */
static inline const char *text_ident_end(const char *p, const char *end)
{
#if defined(__SSE2__)
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		/* x in [lo, lo + n) as a signed compare after moving lo to -128 */
		__m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
		__m128i alpha = _mm_cmplt_epi8(_mm_add_epi8(lower, _mm_set1_epi8((char)(128 - 'a'))),
					       _mm_set1_epi8((char)(-128 + 26)));
		__m128i digit = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)(128 - '0'))),
					       _mm_set1_epi8((char)(-128 + 10)));
		__m128i other = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')),
					     _mm_cmpeq_epi8(v, _mm_set1_epi8('$')));
		unsigned in = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(alpha, digit), other));
		if (in != 0xffffu)
			return p + __builtin_ctz(~in);
		p += 16;
	}
#endif
	while (p < end && text_ident_char(*p))
		p++;
	return p;
}

/* Is p at a backslash-newline?  Returns its length (0 if not). */
static inline int splice_len(const char *p, const char *end)
{
	if (p[0] != '\\' || p + 1 >= end)
		return 0;
	if (p[1] == '\n')
		return 2;
	if (p[1] == '\r' && p + 2 < end && p[2] == '\n')
		return 3;
	return 0;
}

/* Set bits of a 16-bit mask.  __builtin_popcount is a libgcc call on the
 * x86-64 baseline (no POPCNT instruction), and this runs every 16 bytes. */
static inline uint32_t popcount16(unsigned x)
{
	x = x - ((x >> 1) & 0x5555u);
	x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
	x = (x + (x >> 4)) & 0x0f0fu;
	return (x + (x >> 8)) & 0x1fu;
}

/* Newlines in [p, stop). */
static inline uint32_t count_newlines(const char *p, const char *stop)
{
	uint32_t n = 0;
#if defined(__SSE2__)
	const __m128i nl = _mm_set1_epi8('\n');
	for (; stop - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		n += popcount16((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)));
	}
#endif
	for (; p < stop; p++)
		n += *p == '\n';
	return n;
}

/* Whether [p, stop) (part of one line) holds no comment, splice,
 * literal or NUL: none of '/', '\\', quotes or NUL.  Most directive lines
 * (the #define tables of register headers are a third of the kernel's
 * bytes) are plain: read as they are, with nothing to see on the way. */
static inline bool text_plain_line(const char *p, const char *stop)
{
#if defined(__SSE2__)
	for (; stop - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
						  _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))),
				     _mm_cmpeq_epi8(v, _mm_setzero_si128())));
		if (_mm_movemask_epi8(m))
			return false;
	}
#endif
	for (; p < stop; p++)
		if (*p == '/' || *p == '\\' || *p == '"' || *p == '\'' || !*p)
			return false;
	return true;
}

/* Whether a comment whose text starts at p (just past its opener) may be
 * a pragma: after blanks, the word IWYU or hdrslim.  decl.c reads the
 * rest of it; lex.c notes that a file has one (Facts.directives_only). */
static inline bool text_pragma_start(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	size_t left = (size_t)(end - p), n = 0;
	if (left >= 4 && !memcmp(p, "IWYU", 4))
		n = 4;
	else if (left >= 7 && !memcmp(p, "hdrslim", 7))
		n = 7;
	return n && (n == left || !text_ident_char(p[n]));
}

/* p is just past a comment's opening slash-star: returns just past its
 * closing star-slash (a splice between the two still closes it), or end
 * with *closed false; the newlines on the way are added to *line. */
static inline const char *block_comment_end(const char *p, const char *end, uint32_t *line, bool *closed)
{
	*closed = true;
	while (p < end) {
		const char *q = memchr(p, '*', (size_t)(end - p));
		const char *stop = q ? q : end;
		*line += count_newlines(p, stop);
		if (!q)
			break;
		p = q + 1;
		if (p < end && *p == '/')
			return p + 1;
		int n;
		while ((n = splice_len(p, end)) > 0) {
			(*line)++;
			p += n;
		}
		if (p < end && *p == '/')
			return p + 1;
	}
	*closed = false;
	return end;
}

/* p is just past "//": the newline that ends the comment (a backslash
 * before a newline continues it, counted in *line), or end. */
static inline const char *line_comment_end(const char *p, const char *end, uint32_t *line)
{
	while (p < end) {
		const char *q = memchr(p, '\n', (size_t)(end - p));
		if (!q)
			return end;
		const char *b = q;
		if (b > p && b[-1] == '\r')
			b--;
		if (b > p && b[-1] == '\\') {
			(*line)++;
			p = q + 1;
			continue;
		}
		return q;
	}
	return end;
}

#endif
