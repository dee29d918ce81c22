/*
 * facts.h — what one pass over one file learns about it: its preprocessor
 * directives (in order, with their text), how its conditional groups nest,
 * its include guard, its length in lines and any structural error.
 *
 * Facts about a file never depend on another file, so files are lexed in
 * parallel and the facts are cached by content hash.  A Facts is one
 * contiguous, pointer-free block (offsets only), so the cache stores it
 * byte for byte and maps it back without parsing.
 */
#ifndef HDRSLIM_FACTS_H
#define HDRSLIM_FACTS_H

#include <stdint.h>

#include "util.h"

enum DirKind {
	D_INCLUDE,
	D_INCLUDE_NEXT,
	D_DEFINE,
	D_UNDEF,
	D_IF,
	D_IFDEF,
	D_IFNDEF,
	D_ELIF,
	D_ELIFDEF,
	D_ELIFNDEF,
	D_ELSE,
	D_ENDIF,
	D_PRAGMA_ONCE,
	D_ERROR,
	D_LINE,
};

enum DirFlags {
	DF_ANGLED = 1,   /* include <x.h> */
	DF_QUOTED = 2,   /* include "x.h" */
	DF_COMPUTED = 4, /* include MACRO: text holds the tokens */
	DF_FUNCLIKE = 8, /* define NAME(params) */
	DF_BADNAME = 16, /* directive that needs a name has none */
};

typedef struct {
	uint8_t kind, flags;
	uint16_t reserved;
	uint32_t line;
	uint32_t name_off, name_len; /* macro name, or header name of an include */
	uint32_t text_off, text_len; /* define body, #if expression, computed include;
				      * otherwise the same as the name */
	uint32_t args_off, args_len; /* parameters of a function-like define */
	/* Conditional structure: for if, ifdef, ifndef, elif* and else, the index of
	 * the next directive of the same group (elif/else/endif), or ndirs when
	 * the group is never closed; for endif, the index of its opening if. */
	int32_t next;
} Directive;

enum FactsError {
	FE_NONE,
	FE_UNTERMINATED_COMMENT,
	FE_UNTERMINATED_IF,
	FE_ENDIF_WITHOUT_IF,
	FE_ELSE_WITHOUT_IF,
	FE_ELSE_AFTER_ELSE,
	FE_NUL,
	FE_UNTERMINATED_STRING,
};

#define FACTS_VERSION 9
#define FACTS_MAX_ERRORS 4

typedef struct {
	uint8_t kind;
	uint8_t pad[3];
	uint32_t line;
} FactsError;

typedef struct {
	uint32_t size;   /* bytes of the whole block, header included */
	uint32_t ndirs;
	uint32_t strs_len;
	uint32_t lines;  /* physical lines */
	int32_t guard;   /* index of the guard's opening #ifndef, or -1 */
	uint32_t guard_name_off, guard_name_len;
	uint8_t pragma_once;
	uint8_t nerrors;
	uint8_t loose_guard; /* some top-level #ifndef X / #define X pair: it
			      * protects itself from re-inclusion even when
			      * text outside it spoils the classic guard */
	uint8_t names_code; /* an #include of a .c file, or a macro body with
			     * "x.c" or <x.c> for a computed one: whether it
			     * may include a .c file (see maybe_included) */
	uint8_t directives_only; /* nothing but directives, blanks and comments
				  * (none that begins like a pragma), and no
				  * error: its symbol facts follow from the
				  * directives alone (a register header) */
	FactsError errors[FACTS_MAX_ERRORS];
	/* followed by Directive dirs[ndirs], then char strs[strs_len] */
} Facts;

static inline Directive *facts_dirs(const Facts *f)
{
	return (Directive *)(f + 1);
}

static inline const char *facts_strs(const Facts *f)
{
	return (const char *)(facts_dirs(f) + f->ndirs);
}

static inline const char *facts_name(const Facts *f, const Directive *d)
{
	return facts_strs(f) + d->name_off;
}

static inline const char *facts_text(const Facts *f, const Directive *d)
{
	return facts_strs(f) + d->text_off;
}

const char *facts_error_text(int kind);

/* In a macro body [t, end): the next "x.c" or <x.c>, as a pointer to its
 * ".c" (what a computed #include of a .c file would take), or NULL. */
const char *facts_next_c_name(const char *t, const char *end);

/* The #if groups open at directive index dir of f (the include guard left
 * out), as one condition: "defined(A) && !(B) && C" for the branch taken
 * in each, an #elif or #else branch negating the ones before it.  NULL
 * when none.  chain, when given, gets each group's branch directive. */
char *facts_condition(const Facts *f, int dir, IntVec *chain);
/* Index of the first directive at or after line (ndirs when none). */
int facts_dir_at_line(const Facts *f, uint32_t line);

#endif
