/*
 * decl.h — per-file symbol facts: the names a file provides and the names
 * it uses, found by one pass over its C tokens.
 *
 * This is not a C parser.  It follows the shape of declarations at file
 * scope (specifiers, then declarators; aggregate bodies; function bodies)
 * closely enough to tell a declared name from a used one, and when unsure
 * it calls a name "used": an extra use can only keep an include alive,
 * while a missed use could make check suggest removing one that is
 * needed.  Like Facts, the result is one pointer-free block, so it can be
 * cached and shared between threads.
 */
#ifndef HDRSLIM_DECL_H
#define HDRSLIM_DECL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts.h"

/* What a provided name is; the order is the preference for a symbol's
 * home: a definition before a declaration. */
enum SymKind {
	SK_MACRO,      /* #define */
	SK_TYPEDEF,
	SK_TAG_DEF,    /* struct/union/enum with a body */
	SK_ENUM_CONST,
	SK_FUNC_DEF,   /* a function with a body (static inline ...) */
	SK_VAR_DEF,
	SK_FUNC_DECL,  /* a prototype */
	SK_VAR_DECL,   /* extern */
	SK_DECL_MACRO, /* named in a declaration-style macro: DECLARE_PER_CPU(t, name) */
	SK_TAG_DECL,   /* struct S; */
	SK_SEED,       /* an argument of a file-scope macro call that may make
			* names by pasting: TRACE_EVENT(sched_switch, ...) makes
			* trace_sched_switch.  Not a provide; a hint for names no
			* file provides. */
	SK_NKINDS
};

enum UseFlags {
	UF_TAG = 1,          /* struct/union/enum NAME: the tag namespace */
	UF_COMPLETE = 2,     /* a tag use that needs the complete type */
	UF_MACRO_BODY = 4,   /* seen in a #define body */
	UF_COND = 8,         /* seen in an #if / #ifdef expression */
	UF_CODE = 16,        /* seen in ordinary code */
	UF_DECLARE = 32,     /* a tag named inside the parentheses of a file-scope
			      * declaration (a parameter list): even through a
			      * pointer, some declaration of it must be in scope,
			      * or it is a new type local to that prototype */
};

enum ProvideFlags {
	PF_STATIC = 1, /* a function defined static: it wants no prototype
			* (-Wmissing-prototypes asks one of the others) */
};

typedef struct {
	uint32_t name_off;
	uint16_t name_len;
	uint8_t kind;  /* SymKind for provides; 1 for a tag provide of any kind */
	uint8_t flags; /* UseFlags for uses, ProvideFlags for provides */
	uint32_t line; /* first line */
} SymEntry;

/* What a user wrote about an #include line (kind of a pragma entry; its
 * name is the header named in the pragma, as written, or empty). */
enum PragmaKind {
	PR_KEEP,           /* IWYU pragma: keep, hdrslim: keep */
	PR_EXPORT,         /* IWYU pragma: export: includers get what it brings */
	PR_BEGIN_EXPORTS,  /* every include up to end_exports is exported */
	PR_END_EXPORTS,
	PR_PRIVATE,        /* IWYU pragma: private[, include "public.h"] */
	PR_NO_INCLUDE,     /* IWYU pragma: no_include "x.h": never suggest it here */
	PR_NESTED,         /* not a pragma: an #include inside braces or
			    * parentheses (an X-macro table), never removable */
};

#define SYMBOLS_VERSION 16

typedef struct {
	uint32_t size; /* bytes of the whole block, a multiple of 8 */
	uint32_t nprovides, nuses, npragmas, strs_len;
	uint32_t pad;
	/* NULL in a block that holds all its names (every cached one).
	 * Otherwise the strings its macro provides' name_off count from: the
	 * directive facts' of a file of directives only (decl_directives),
	 * millions of long names in register headers that are not worth
	 * copying or caching twice. */
	const char *provide_strs;
	/* followed by SymEntry provides[nprovides], uses[nuses],
	 * pragmas[npragmas], char strs[] */
} Symbols;

static inline const SymEntry *sym_provides(const Symbols *s)
{
	return (const SymEntry *)(s + 1);
}

static inline const SymEntry *sym_uses(const Symbols *s)
{
	return sym_provides(s) + s->nprovides;
}

static inline const SymEntry *sym_pragmas(const Symbols *s)
{
	return sym_uses(s) + s->nuses;
}

static inline const char *sym_name(const Symbols *s, const SymEntry *e)
{
	if (s->provide_strs && e->kind == SK_MACRO && e >= sym_provides(s) && e < sym_uses(s))
		return s->provide_strs + e->name_off;
	return (const char *)(sym_pragmas(s) + s->npragmas) + e->name_off;
}

static inline int sym_is_tag_kind(int kind)
{
	return kind == SK_TAG_DEF || kind == SK_TAG_DECL;
}

typedef struct DeclScratch DeclScratch;

DeclScratch *decl_scratch_new(void);
void decl_scratch_free(DeclScratch *s);

/* Names that declare what they name, beyond DECLARE_* and DEFINE_*
 * (e.g. a project's own "LIST_HEAD"); set before any decl_file call. */
void decl_add_macro(const char *name);
/* Whether decl_add_macro was called: the symbol facts then depend on more
 * than the file's bytes (and are not cached). */
bool decl_has_extra_macros(void);

/* buf[len] must be 0.  f: the file's directive facts (macro provides,
 * #if and #define uses come from them).  Returns a malloc'd block. */
Symbols *decl_file(const char *buf, size_t len, const Facts *f, DeclScratch *s);

/* Where a caller wants a block: at(arg, size) returns size bytes (a
 * multiple of 8, 8-aligned), or NULL for a malloc'd block. */
typedef struct {
	void *(*at)(void *arg, size_t size);
	void *arg;
} BlockPlace;

/* decl_file, the block put where place says (the symbols cache writes it
 * in place: cache_reserve_block). */
Symbols *decl_file_placed(const char *buf, size_t len, const Facts *f, DeclScratch *s, const BlockPlace *place);

/* The same for the live part of a file under one configuration: dead
 * holds [from, to) line pairs (ndead numbers) of branches not taken,
 * whose text and directives are ignored. */
Symbols *decl_file_live(const char *buf, size_t len, const Facts *f, DeclScratch *s,
			const uint32_t *dead, int ndead);

/* The symbol facts of a file of directives only (Facts.directives_only),
 * from f alone: what decl_file would give, the provides' names left in
 * f's strings (Symbols.provide_strs), so the block lives no longer than
 * f and is never cached. */
Symbols *decl_directives(const Facts *f, DeclScratch *s);

const char *sym_kind_name(int kind);

#endif
