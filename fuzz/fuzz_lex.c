/*
 * fuzz_lex.c — libFuzzer target for the per-file scanner (src/lex.c).
 *
 * The input is a file's bytes.  It is copied into a buffer with the NUL
 * sentinel lex_file() requires (buf[len] == 0), lexed with one LexScratch
 * kept across calls (as the worker threads keep theirs), and the returned
 * Facts block is checked for internal consistency: every offset/length
 * inside the string area and NUL-terminated there, conditional links in
 * range and pointing the right way, the guard a real #ifndef/#if whose
 * #endif is the last directive.  Any violation abort()s, so libFuzzer
 * records the input as a crash.  The same input is also lexed with a fresh
 * scratch: the result must be byte-identical (no state leaks from one file
 * to the next through the reused buffers).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "lex.h"

static LexScratch scratch;

#define CHECK(cond)                                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "fuzz_lex: check failed: %s (%s:%d)\n", \
				#cond, __FILE__, __LINE__);                      \
			abort();                                                 \
		}                                                                \
	} while (0)

/* [off, off+len] (the terminating NUL included) lies inside the strings. */
static void check_str(const Facts *f, uint32_t off, uint32_t len)
{
	CHECK((uint64_t)off + len < f->strs_len);
	CHECK(facts_strs(f)[off + len] == 0);
}

static int is_if(int k)
{
	return k == D_IF || k == D_IFDEF || k == D_IFNDEF;
}

static int is_branch(int k)
{
	return k == D_ELIF || k == D_ELIFDEF || k == D_ELIFNDEF || k == D_ELSE;
}

static void check_facts(const Facts *f, size_t len)
{
	int32_t ndirs = (int32_t)f->ndirs;
	CHECK(f->ndirs <= len + 1);
	CHECK(f->strs_len >= 1); /* offset 0 is the empty string */
	CHECK(facts_strs(f)[0] == 0);
	uint64_t need = sizeof(Facts) + (uint64_t)f->ndirs * sizeof(Directive) + f->strs_len;
	CHECK(f->size >= need);
	CHECK(f->nerrors <= FACTS_MAX_ERRORS);
	for (int i = 0; i < f->nerrors; i++)
		CHECK(f->errors[i].kind != FE_NONE && f->errors[i].kind <= FE_UNTERMINATED_STRING);

	const Directive *dirs = facts_dirs(f);
	uint32_t prev_line = 1;
	for (int32_t i = 0; i < ndirs; i++) {
		const Directive *d = &dirs[i];
		CHECK(d->kind <= D_LINE);
		check_str(f, d->name_off, d->name_len);
		check_str(f, d->text_off, d->text_len);
		check_str(f, d->args_off, d->args_len);
		CHECK(d->next >= -1 && d->next <= ndirs);
		CHECK(d->line >= prev_line);
		CHECK(d->line <= f->lines);
		prev_line = d->line;
		if (d->kind == D_ENDIF) {
			/* -1 (no #if: an error is recorded) or its opening #if */
			if (d->next >= 0) {
				CHECK(d->next < i);
				CHECK(is_if(dirs[d->next].kind));
			} else {
				CHECK(f->nerrors > 0);
			}
		} else if (is_if(d->kind)) {
			/* always linked: to its next branch, its #endif or ndirs */
			CHECK(d->next > i);
			if (d->next == ndirs)
				CHECK(f->nerrors > 0);
			else
				CHECK(is_branch(dirs[d->next].kind) || dirs[d->next].kind == D_ENDIF);
		} else if (is_branch(d->kind)) {
			if (d->next >= 0) {
				CHECK(d->next > i);
				if (d->next < ndirs)
					CHECK(is_branch(dirs[d->next].kind) || dirs[d->next].kind == D_ENDIF);
			} else {
				CHECK(f->nerrors > 0); /* #else without #if */
			}
		} else {
			CHECK(d->next == -1);
		}
		if (d->flags & DF_FUNCLIKE)
			CHECK(d->kind == D_DEFINE);
		if (d->flags & DF_COMPUTED)
			CHECK(d->kind == D_INCLUDE || d->kind == D_INCLUDE_NEXT);
	}

	CHECK(f->guard >= -1 && f->guard < ndirs);
	if (f->guard >= 0) {
		CHECK(f->guard == 0);
		CHECK(f->nerrors == 0);
		CHECK(ndirs >= 2);
		const Directive *g = &dirs[f->guard];
		CHECK(g->kind == D_IFNDEF || g->kind == D_IF);
		CHECK(g->next == ndirs - 1);
		CHECK(dirs[ndirs - 1].kind == D_ENDIF);
		CHECK(f->guard_name_len > 0);
		CHECK((uint64_t)f->guard_name_off + f->guard_name_len < f->strs_len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	buf[size] = 0;

	Facts *f = lex_file(buf, size, &scratch);
	CHECK(f != NULL);
	check_facts(f, size);

	/* Determinism: a fresh scratch must give the same block. */
	LexScratch fresh = {0};
	Facts *g = lex_file(buf, size, &fresh);
	CHECK(g->size == f->size);
	CHECK(memcmp(f, g, f->size) == 0);
	lex_scratch_free(&fresh);

	free(g);
	free(f);
	free(buf);
	return 0;
}
