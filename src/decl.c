/*
 * decl.c — symbol facts: what a file provides and what it uses.
 *
 * A tokenizer feeds a small recursive parser that knows four contexts:
 * file scope (a declaration is collected up to its ';' or body and then
 * split into specifiers and declarators), aggregate bodies (members are
 * not uses; enumerators are provided), function bodies (locals,
 * parameters and labels are not uses) and initializers (designators are
 * not uses).  Preprocessor lines are skipped by the tokenizer, except that
 * it follows conditional groups: "#if 0" is skipped, and when an #if
 * branch leaves braces unbalanced its #else branch is not parsed but its
 * identifiers are still counted as uses.  Macros, #define bodies and #if
 * expressions come from the directive facts.
 */
#include "decl.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

enum { T_EOF, T_IDENT, T_PUNCT, T_OTHER, T_BODY };
enum { P_ARROW = 'A', P_ELLIPSIS = 'E' };

/* Sixteen bytes, so that a token is returned in two registers: one that
 * goes through memory is read back before the stores that built it have
 * drained, and each token then waits for them. */
typedef struct {
	const char *s;
	uint32_t line;
	uint16_t len;       /* at most 0xffff: a longer identifier is T_OTHER
			     * (no name that long is recorded), a longer
			     * literal only its first 0xffff bytes */
	unsigned kind : 4;
	unsigned kw : 4;    /* keyword class, see classify() */
	char c;             /* punctuator: its first char, or P_ARROW / P_ELLIPSIS */
} Tok;
_Static_assert(sizeof(Tok) == 16, "Tok fits two registers");

/* keyword classes */
enum { KW_NONE, KW_TYPE, KW_QUAL, KW_TAG, KW_TYPEDEF, KW_EXTERN, KW_ATTR, KW_OTHER, KW_GOTO };

typedef struct {
	uint64_t hash;
	uint32_t off, len;
	int32_t idx; /* index into uses, or -1 for an empty slot */
} Slot;

typedef struct {
	const char *s;
	uint32_t len;
	const char *tag; /* non-NULL for a local's struct tag */
} Local;

/* A parameter "struct T *name" of a function definition: T needs its
 * complete type only if the body reaches through name (name->m, name[i],
 * *name, name + 1) or hands it to a call of anything but a function the
 * file itself declares (a macro may reach through it: cpu_has(c, bit));
 * a body that only passes the pointer to such a function, compares it or
 * returns it needs no more than a declaration of T.
 * The use of T is recorded when the body has been read. */
typedef struct {
	const char *tag, *name;
	uint16_t tag_len, name_len;
	uint32_t line;
	int flags;
	bool through;      /* the body reaches through it */
} PtrParam;

struct DeclScratch {
	VEC(SymEntry) prov, uses, pragmas;
	VEC(char) strs;
	Slot *slots;
	uint32_t nslots, nused;
	VEC(uint32_t) filled; /* the slots in use: all a new file must clear (the
			       * table keeps the size of the largest file seen) */
	VEC(Tok) stmt;
	VEC(Local) locals;
	uint64_t local_bits; /* a bit per local (local_bit): most identifiers
			      * of a body are no local, told without a search */
	VEC(PtrParam) ptr_params; /* of the function definition being read */
};

/* ---- user-declared declaration macros ---- */

static VEC(char *) extra_decl_macros;

void decl_add_macro(const char *name)
{
	vec_push(&extra_decl_macros, xstrdup(name));
}

bool decl_has_extra_macros(void)
{
	return extra_decl_macros.n > 0;
}

/* ---- output ---- */

static uint32_t add_str(DeclScratch *s, const char *p, uint32_t n)
{
	uint32_t off = (uint32_t)s->strs.n;
	vec_grow(&s->strs, s->strs.n + (int)n + 1);
	memcpy(s->strs.v + s->strs.n, p, n);
	s->strs.v[s->strs.n + (int)n] = 0;
	s->strs.n += (int)n + 1;
	return off;
}

static void provide_flags(DeclScratch *s, const char *p, uint32_t n, int kind, int flags, uint32_t line)
{
	if (!n || n > 0xffff)
		return;
	SymEntry e = {.name_off = add_str(s, p, n),
		      .name_len = (uint16_t)n,
		      .kind = (uint8_t)kind,
		      .flags = (uint8_t)flags,
		      .line = line};
	vec_push(&s->prov, e);
}

static void provide(DeclScratch *s, const char *p, uint32_t n, int kind, uint32_t line)
{
	provide_flags(s, p, n, kind, 0, line);
}

static inline uint64_t load64(const char *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
	return x;
}

static inline uint64_t load32(const char *p)
{
	uint32_t x;
	memcpy(&x, p, 4);
	return x;
}

/* Whether a[0..n) and b[0..n) are the same bytes, n >= 1: names are short,
 * and a call to memcmp costs more than comparing them. */
static inline bool same_name(const char *a, const char *b, uint32_t n)
{
	if (n >= 8) {
		for (uint32_t i = 0; i + 8 < n; i += 8)
			if (load64(a + i) != load64(b + i))
				return false;
		return load64(a + n - 8) == load64(b + n - 8);
	}
	if (n >= 4)
		return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
	return a[0] == b[0] && a[n >> 1] == b[n >> 1] && a[n - 1] == b[n - 1];
}

/* A use's slot in the per-file table (the tag namespace apart). */
static uint64_t use_hash(const char *p, uint32_t n, bool tag)
{
	return hash_bytes(p, n) ^ (uint64_t)tag;
}

static void grow_slots(DeclScratch *s)
{
	uint32_t n = s->nslots ? s->nslots * 2 : 1024;
	Slot *ns = xmalloc(n * sizeof(Slot));
	for (uint32_t i = 0; i < n; i++)
		ns[i].idx = -1;
	s->filled.n = 0;
	for (uint32_t i = 0; i < s->nslots; i++) {
		if (s->slots[i].idx < 0)
			continue;
		uint32_t j = (uint32_t)s->slots[i].hash & (n - 1);
		while (ns[j].idx >= 0)
			j = (j + 1) & (n - 1);
		ns[j] = s->slots[i];
		vec_push(&s->filled, j);
	}
	free(s->slots);
	s->slots = ns;
	s->nslots = n;
}

/* Records a use of p[0..n); one entry per name (and namespace), flags ORed. */
static void use(DeclScratch *s, const char *p, uint32_t n, int flags, uint32_t line)
{
	if (!n || n > 0xffff)
		return;
	bool tag = flags & UF_TAG;
	if (2 * (s->nused + 1) > s->nslots)
		grow_slots(s);
	uint64_t h = use_hash(p, n, tag);
	uint32_t j = (uint32_t)h & (s->nslots - 1);
	for (; s->slots[j].idx >= 0; j = (j + 1) & (s->nslots - 1)) {
		Slot *sl = &s->slots[j];
		SymEntry *e = &s->uses.v[sl->idx];
		if (sl->hash == h && e->name_len == n && ((e->flags & UF_TAG) != 0) == tag &&
		    same_name(s->strs.v + e->name_off, p, n)) {
			e->flags |= (uint8_t)flags;
			if (line < e->line)
				e->line = line; /* a deferred use (PtrParam) comes late */
			return;
		}
	}
	SymEntry e = {.name_off = add_str(s, p, n), .name_len = (uint16_t)n, .flags = (uint8_t)flags, .line = line};
	s->slots[j] = (Slot){.hash = h, .idx = s->uses.n};
	vec_push(&s->filled, j);
	s->nused++;
	vec_push(&s->uses, e);
}

/* ---- keywords ---- */

static const struct {
	const char *w;
	int k;
} words[] = {
	{"void", KW_TYPE}, {"char", KW_TYPE}, {"short", KW_TYPE}, {"int", KW_TYPE},
	{"long", KW_TYPE}, {"float", KW_TYPE}, {"double", KW_TYPE}, {"signed", KW_TYPE},
	{"unsigned", KW_TYPE}, {"_Bool", KW_TYPE}, {"_Complex", KW_TYPE}, {"__signed__", KW_TYPE},
	{"__int128", KW_TYPE}, {"_Float128", KW_TYPE},
	{"const", KW_QUAL}, {"volatile", KW_QUAL}, {"restrict", KW_QUAL}, {"static", KW_QUAL},
	{"register", KW_QUAL}, {"auto", KW_QUAL}, {"inline", KW_QUAL}, {"__inline", KW_QUAL},
	{"__inline__", KW_QUAL}, {"__restrict", KW_QUAL}, {"__restrict__", KW_QUAL},
	{"__volatile__", KW_QUAL}, {"__const", KW_QUAL}, {"__const__", KW_QUAL},
	{"_Thread_local", KW_QUAL}, {"__thread", KW_QUAL}, {"_Noreturn", KW_QUAL},
	{"_Atomic", KW_QUAL}, {"__extension__", KW_QUAL},
	{"struct", KW_TAG}, {"union", KW_TAG}, {"enum", KW_TAG},
	{"typedef", KW_TYPEDEF}, {"extern", KW_EXTERN},
	{"__attribute__", KW_ATTR}, {"__attribute", KW_ATTR}, {"__declspec", KW_ATTR},
	{"asm", KW_ATTR}, {"__asm__", KW_ATTR}, {"__asm", KW_ATTR}, {"_Alignas", KW_ATTR},
	{"typeof", KW_OTHER}, {"__typeof__", KW_OTHER}, {"__typeof", KW_OTHER},
	{"typeof_unqual", KW_OTHER}, {"__auto_type", KW_OTHER},
	{"sizeof", KW_OTHER}, {"_Alignof", KW_OTHER}, {"__alignof__", KW_OTHER},
	{"_Generic", KW_OTHER}, {"_Static_assert", KW_OTHER}, {"return", KW_OTHER},
	{"if", KW_OTHER}, {"else", KW_OTHER}, {"while", KW_OTHER}, {"do", KW_OTHER},
	{"for", KW_OTHER}, {"switch", KW_OTHER}, {"case", KW_OTHER}, {"default", KW_OTHER},
	{"break", KW_OTHER}, {"continue", KW_OTHER}, {"goto", KW_GOTO},
	{"__builtin_va_arg", KW_OTHER}, {"__builtin_offsetof", KW_OTHER},
	{"__builtin_types_compatible_p", KW_OTHER}, {"__label__", KW_OTHER},
};

/* Keyword lookup: every identifier of every file goes through it, so an
 * open-addressing table filled once instead of a scan of the list. */
#define KW_SLOTS 512
static struct {
	const char *w;
	uint8_t len, k;
} kw_table[KW_SLOTS];
/* by first byte: bit n set when a keyword of n bytes starts with it, so
 * that most identifiers are turned away without hashing them */
static uint32_t kw_lengths[256];
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

/* The first and last bytes and the length tell the keywords apart well
 * enough for a table of a few collisions, without reading the rest. */
static uint32_t kw_hash(const char *p, uint32_t n)
{
	return (unsigned char)p[0] * 31u + (unsigned char)p[n - 1] * 7u + n * 101u;
}

static void kw_init(void)
{
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		uint32_t n = (uint32_t)strlen(words[i].w);
		uint32_t j = kw_hash(words[i].w, n) & (KW_SLOTS - 1);
		while (kw_table[j].w)
			j = (j + 1) & (KW_SLOTS - 1);
		kw_table[j].w = words[i].w;
		kw_table[j].len = (uint8_t)n;
		kw_table[j].k = (uint8_t)words[i].k;
		kw_lengths[(unsigned char)words[i].w[0]] |= 1u << n;
	}
}

static int classify(const char *p, uint32_t n)
{
	if (n < 2 || n > 28 || !(kw_lengths[(unsigned char)p[0]] >> n & 1))
		return KW_NONE;
	for (uint32_t j = kw_hash(p, n) & (KW_SLOTS - 1); kw_table[j].w; j = (j + 1) & (KW_SLOTS - 1))
		if (kw_table[j].len == n && same_name(kw_table[j].w, p, n))
			return kw_table[j].k;
	return KW_NONE;
}

typedef struct {
	const char *w;
	uint8_t n;
} Word;
#define W(s) {s, sizeof(s) - 1}

static bool in_words(const Word *ws, size_t nw, const char *p, uint32_t n)
{
	for (size_t i = 0; i < nw; i++)
		if (ws[i].n == n && !memcmp(ws[i].w, p, n))
			return true;
	return false;
}

/* Attribute-like macros written with arguments after or before a
 * declarator; they are uses, never the declared name. */
static bool attr_macro(const char *p, uint32_t n)
{
	static const Word names[] = {
		W("__aligned"), W("__section"), W("__printf"), W("__scanf"), W("__acquires"), W("__releases"),
		W("__must_hold"), W("__cond_acquires"), W("__cond_releases"), W("__counted_by"), W("__alloc_size"),
		W("__assume_aligned"), W("__cleanup"), W("__diagnose_as"), W("__malloc"), W("__nonstring"),
		W("__weak_alias"), W("__alias"), W("__copy"), W("__latent_entropy"), W("__no_sanitize_or_inline"),
		W("__attribute_format__"), W("__nonnull"), W("__wur"), W("__THROW"), W("__REDIRECT"), W("__asm_inline"),
		W("__malloc_like"), W("__attr_access"), W("__attr_dealloc"), W("__fortified_attr_access"),
		W("__nonnull_attribute__"), W("__format_arg"), W("__cold"), W("__section_name"), W("__ksym"),
		W("__guarded_by"), W("__pt_guarded_by"), W("__must_check_fn"), W("__retain"),
	};
	if (n < 5 || p[0] != '_' || p[1] != '_')
		return false; /* they all start so; most names do not */
	return in_words(names, sizeof(names) / sizeof(names[0]), p, n);
}

/* Attribute macros written without arguments ("extern int x __read_mostly;",
 * "struct foo __rcu *p"): never the declared name when another is there. */
static bool attr_word(const char *p, uint32_t n)
{
	static const Word names[] = {
		W("__read_mostly"), W("__ro_after_init"), W("__initdata"), W("__initconst"), W("__exitdata"),
		W("__init"), W("__exit"), W("__cacheline_aligned"), W("__cacheline_aligned_in_smp"),
		W("____cacheline_aligned"), W("____cacheline_aligned_in_smp"), W("__page_aligned_data"),
		W("__page_aligned_bss"), W("__percpu"), W("__user"), W("__iomem"), W("__rcu"), W("__force"), W("__bitwise"),
		W("__maybe_unused"), W("__always_unused"), W("__used"), W("__weak"), W("__visible"), W("__packed"),
		W("__must_check"), W("__cold"), W("__hot"), W("__pure"), W("__noreturn"), W("__always_inline"),
		W("__noinline"), W("__attribute_const__"), W("__initdata_or_module"), W("__init_or_module"),
		W("__meminit"), W("__meminitdata"), W("__refdata"), W("__ref"), W("__nocfi"), W("noinstr"), W("__noinstr"),
		W("__latent_entropy"), W("__randomize_layout"), W("__no_randomize_layout"), W("__designated_init"),
		W("__jiffy_data"), W("__jiffy_arch_data"), W("__lsm_ro_after_init"), W("__aligned_largest"),
		W("__THROW"), W("__wur"), W("__attribute_pure__"), W("__attribute_malloc__"), W("__init_memblock"),
		W("__kprobes"), W("__sched"), W("__lockfunc"), W("__irq_entry"), W("__softirq_entry"), W("asmlinkage"),
		W("__ksym"), W("__kconfig"), W("__weak_ref"), W("__nonstring"), W("__data_racy"), W("__private"),
		W("__safe"), W("__nocast"), W("__kernel"), W("__user_ptr"), W("__iomem_ptr"), W("__bpf_kfunc"),
		W("notrace"), W("__notrace"), W("__flatten"), W("__no_kcsan"), W("__no_sanitize_address"),
		W("__section_bss"), W("__initdata_memblock"), W("__refconst"), W("__exit_call"), W("__initcall"),
	};
	if (p[0] != '_' && p[0] != 'a' && p[0] != 'n')
		return false; /* the first bytes of the words above */
	return in_words(names, sizeof(names) / sizeof(names[0]), p, n);
}

static bool is_decl_macro(const char *p, uint32_t n)
{
	if ((n > 8 && !memcmp(p, "DECLARE_", 8)) || (n > 7 && !memcmp(p, "DEFINE_", 7)))
		return true;
	for (int i = 0; i < extra_decl_macros.n; i++)
		if (strlen(extra_decl_macros.v[i]) == n && !memcmp(extra_decl_macros.v[i], p, n))
			return true;
	return false;
}

/* ---- tokenizer ---- */

typedef struct {
	int32_t balance_at_if; /* brace+paren balance when the group opened */
	bool harvest_rest;     /* an unbalanced branch: skip what follows */
} Cond;

typedef struct {
	const char *p, *end;
	uint32_t line;
	bool bol;
	int32_t balance;
	int32_t linkage; /* extern "C" { blocks open (their braces not in balance) */
	Cond cond[256];
	int ncond; /* may exceed 256: deeper levels are not tracked */
	/* skipping: 0 none; else the #if depth inside the skipped region + 1 */
	int skip;
	bool skip_harvest;   /* record identifiers of skipped text as uses */
	bool skip_to_endif;  /* an #else/#elif does not end the skip */
	bool in_directive;   /* stop at the end of the logical line */
	Tok la[8];
	int nla;
	int body_nesting; /* parse_function_body calls open */
	DeclScratch *s;
} D;

static void skip_literal(D *d)
{
	char q = *d->p++;
	while (d->p < d->end) {
		int sp = splice_len(d->p, d->end);
		if (sp) {
			d->p += sp;
			d->line++;
			continue;
		}
		char c = *d->p;
		if (c == '\n')
			return; /* unterminated: ends with the line */
		d->p++;
		if (c == '\\' && d->p < d->end && *d->p != '\n')
			d->p++;
		else if (c == q)
			return;
	}
}

static void directive(D *d);
static void comment_pragma(DeclScratch *s, const char *p, const char *end, uint32_t line);

/* The next raw token; handles whitespace, comments and directive lines. */
static Tok scan(D *d)
{
	for (;;) {
		if (d->p >= d->end)
			return (Tok){.kind = T_EOF, .line = d->line};
		char c = *d->p;
		if (c == '\n') {
			if (d->in_directive)
				return (Tok){.kind = T_EOF, .line = d->line};
			d->p++;
			d->line++;
			d->bol = true;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			const char *q = d->p + 1; /* a run of blanks at once */
			while (*q == ' ' || *q == '\t')
				q++;
			d->p = q;
			continue;
		}
		int sp = splice_len(d->p, d->end);
		if (sp) {
			d->p += sp;
			d->line++;
			continue;
		}
		if (c == '/' && d->p + 1 < d->end && d->p[1] == '*') {
			bool closed; /* unterminated: lex.c reports it */
			comment_pragma(d->s, d->p + 2, d->end, d->line);
			d->p = block_comment_end(d->p + 2, d->end, &d->line, &closed);
			continue;
		}
		if (c == '/' && d->p + 1 < d->end && d->p[1] == '/') {
			comment_pragma(d->s, d->p + 2, d->end, d->line);
			d->p = line_comment_end(d->p + 2, d->end, &d->line);
			continue;
		}
		if (c == '#' && d->bol && !d->in_directive) {
			d->p++;
			directive(d);
			continue;
		}
		d->bol = false;
		Tok t = {.s = d->p, .line = d->line};
		if (text_ident_start(c)) {
			const char *q = text_ident_end(d->p + 1, d->end);
			if (q < d->end && (*q == '"' || *q == '\'') &&
			    ((q - d->p == 1 && (*d->p == 'L' || *d->p == 'u' || *d->p == 'U')) ||
			     (q - d->p == 2 && d->p[0] == 'u' && d->p[1] == '8'))) {
				d->p = q;
				skip_literal(d);
				t.kind = T_OTHER;
			} else {
				d->p = q;
				if (q - t.s > 0xffff) {
					t.kind = T_OTHER;
					t.len = 0xffff;
					return t;
				}
				t.kind = T_IDENT;
				t.len = (uint16_t)(q - t.s);
				t.kw = (unsigned)classify(t.s, t.len) & 15;
				return t;
			}
		} else if ((c >= '0' && c <= '9') ||
			   (c == '.' && d->p + 1 < d->end && d->p[1] >= '0' && d->p[1] <= '9')) {
			d->p++;
			while (d->p < d->end) {
				char e = *d->p;
				if ((e == '+' || e == '-') && (d->p[-1] == 'e' || d->p[-1] == 'E' ||
							       d->p[-1] == 'p' || d->p[-1] == 'P'))
					d->p++;
				else if (text_ident_char(e) || e == '.')
					d->p++;
				else
					break;
			}
			t.kind = T_OTHER;
		} else if (c == '"' || c == '\'') {
			skip_literal(d);
			t.kind = T_OTHER;
		} else {
			t.kind = T_PUNCT;
			t.c = c;
			d->p++;
			if (c == '-' && d->p < d->end && *d->p == '>') {
				t.c = P_ARROW;
				d->p++;
			} else if (c == '.' && d->end - d->p >= 2 && d->p[0] == '.' && d->p[1] == '.') {
				t.c = P_ELLIPSIS;
				d->p += 2;
			}
		}
		t.len = (uint16_t)(d->p - t.s > 0xffff ? 0xffff : d->p - t.s);
		return t;
	}
}

/* Skips the rest of the logical line (the directive's operands). */
static void skip_directive_line(D *d)
{
	const char *nl = memchr(d->p, '\n', (size_t)(d->end - d->p));
	const char *stop = nl ? nl : d->end;
	if (text_plain_line(d->p, stop)) {
		d->p = stop;
		return;
	}
	bool was = d->in_directive;
	d->in_directive = true;
	while (scan(d).kind != T_EOF)
		;
	d->in_directive = was;
}

/* Harvests the rest of a directive line? No: #if operands come from the
 * facts.  Returns true when the line's operand is exactly "0". */
static bool operand_is_zero(D *d)
{
	bool was = d->in_directive;
	d->in_directive = true;
	Tok a = scan(d);
	bool zero = a.kind == T_OTHER && a.len == 1 && a.s[0] == '0';
	if (a.kind != T_EOF && scan(d).kind != T_EOF) {
		zero = false;
		while (scan(d).kind != T_EOF)
			;
	}
	d->in_directive = was;
	return zero;
}

static bool word_is(const Tok *t, const char *w)
{
	return t->kind == T_IDENT && t->len == strlen(w) && !memcmp(t->s, w, t->len);
}

static void directive(D *d)
{
	bool was = d->in_directive;
	d->in_directive = true;
	Tok k = scan(d);
	d->in_directive = was;
	bool is_if = word_is(&k, "if") || word_is(&k, "ifdef") || word_is(&k, "ifndef");
	bool is_else = word_is(&k, "else") || word_is(&k, "elif") || word_is(&k, "elifdef") ||
		       word_is(&k, "elifndef");
	bool is_endif = word_is(&k, "endif");
	if (d->skip) {
		if (is_if)
			d->skip++;
		else if (is_endif && --d->skip == 0 && d->ncond > 0)
			d->ncond--;
		else if (is_else && d->skip == 1 && !d->skip_to_endif)
			d->skip = 0; /* the #if 0 branch ends; this one is live */
		skip_directive_line(d);
		return;
	}
	if (is_if) {
		bool zero = word_is(&k, "if") && operand_is_zero(d);
		if (!zero)
			skip_directive_line(d);
		if (d->ncond < 256)
			d->cond[d->ncond] = (Cond){.balance_at_if = d->balance};
		d->ncond++;
		if (zero) {
			d->skip = 1;
			d->skip_harvest = false;
			d->skip_to_endif = false;
		}
		return;
	}
	if (is_else && d->ncond > 0) {
		skip_directive_line(d);
		if (d->ncond <= 256 && d->cond[d->ncond - 1].balance_at_if != d->balance) {
			/* The branch before left braces open: parsing this one too
			 * would double them.  Its names still count as uses. */
			d->skip = 1;
			d->skip_harvest = true;
			d->skip_to_endif = true;
		}
		return;
	}
	if (is_endif && d->ncond > 0)
		d->ncond--;
	if (d->balance > 0 && (word_is(&k, "include") || word_is(&k, "include_next"))) {
		SymEntry e = {.kind = PR_NESTED, .line = k.line};
		vec_push(&d->s->pragmas, e);
	}
	skip_directive_line(d);
}

/* The next token for the parser: skipped regions are consumed here. */
static Tok next_raw(D *d)
{
	for (;;) {
		Tok t = scan(d);
		if (t.kind == T_EOF)
			return t;
		if (d->skip) {
			if (d->skip_harvest && t.kind == T_IDENT && !t.kw)
				use(d->s, t.s, t.len, UF_CODE, t.line);
			continue;
		}
		if (t.kind == T_PUNCT) {
			if (t.c == '{' || t.c == '(' || t.c == '[')
				d->balance++;
			else if (t.c == '}' || t.c == ')' || t.c == ']')
				d->balance--;
		}
		return t;
	}
}

static Tok peek_at(D *d, int i)
{
	while (d->nla <= i)
		d->la[d->nla++] = next_raw(d);
	return d->la[i];
}

static Tok peek(D *d)
{
	return peek_at(d, 0);
}

static Tok next(D *d)
{
	if (!d->nla) /* nothing looked ahead: the common case */
		return next_raw(d);
	Tok t = d->la[0];
	if (--d->nla)
		memmove(d->la, d->la + 1, (size_t)d->nla * sizeof(Tok));
	return t;
}

static bool is_p(const Tok *t, char c)
{
	return t->kind == T_PUNCT && t->c == c;
}

/* ---- locals of the function being read ---- */

static inline uint64_t local_bit(const char *p, uint32_t n)
{
	return 1ull << ((n * 7u + (unsigned char)p[0] + (unsigned char)p[n - 1] * 3u) & 63);
}

static void clear_locals(DeclScratch *s)
{
	s->locals.n = 0;
	s->local_bits = 0;
}

static bool is_local(D *d, const Tok *t)
{
	if (!(d->s->local_bits & local_bit(t->s, t->len)))
		return false;
	for (int i = d->s->locals.n - 1; i >= 0; i--) {
		Local *l = &d->s->locals.v[i];
		if (l->len == t->len && same_name(l->s, t->s, t->len))
			return true;
	}
	return false;
}

static void add_local(D *d, const Tok *t)
{
	Local l = {.s = t->s, .len = t->len};
	vec_push(&d->s->locals, l);
	d->s->local_bits |= local_bit(t->s, t->len);
}

/* An identifier in code: a use unless it is a local. */
static void code_use(D *d, const Tok *t, int flags)
{
	if (t->kw || is_local(d, t))
		return;
	use(d->s, t->s, t->len, flags | UF_CODE, t->line);
}

/* struct/union/enum keyword t was just read (not at file scope's
 * statement collector): records the tag use and returns. */
static void tag_use(D *d, bool complete)
{
	Tok n = peek(d);
	if (n.kind != T_IDENT || n.kw)
		return;
	next(d);
	Tok after = peek(d);
	int flags = UF_TAG | UF_CODE;
	if (complete || !is_p(&after, '*'))
		flags |= UF_COMPLETE;
	use(d->s, n.s, n.len, flags, n.line);
}

/* ---- aggregate bodies, initializers, function bodies ---- */

static void parse_aggregate(D *d, bool is_enum);

/* Reads up to and including the '}' matching an already read '{'; every
 * identifier is a use except designators and members. */
static void parse_initializer(D *d)
{
	int depth = 1;
	Tok prev = {0};
	for (;;) {
		Tok t = next(d);
		if (t.kind == T_EOF)
			return;
		if (is_p(&t, '{'))
			depth++;
		else if (is_p(&t, '}') && --depth == 0)
			return;
		if (t.kind == T_IDENT && t.kw == KW_TAG)
			tag_use(d, true);
		else if (t.kind == T_IDENT && !(is_p(&prev, '.') || is_p(&prev, P_ARROW)))
			code_use(d, &t, 0);
		prev = t;
	}
}

/* Is t something a declaration's type can be made of? */
static bool typeish(const Tok *t)
{
	if (t->kind == T_BODY)
		return true;
	if (t->kind == T_PUNCT)
		return t->c == '*';
	if (t->kind != T_IDENT)
		return false;
	return t->kw == KW_NONE || t->kw == KW_TYPE || t->kw == KW_QUAL;
}

static void parse_function_body(D *d, bool is_macro_body);
static void flush_ptr_params(D *d);

/* Is t the name of a function this file has declared or defined before?
 * A call of anything else (a macro such as cpu_has(c, bit), or a
 * function whose prototype is elsewhere) may reach through its
 * arguments, as far as the file shows. */
static bool own_function(D *d, const Tok *t)
{
	const DeclScratch *s = d->s;
	for (int i = s->prov.n - 1; i >= 0; i--) {
		const SymEntry *e = &s->prov.v[i];
		if ((e->kind == SK_FUNC_DECL || e->kind == SK_FUNC_DEF) && e->name_len == t->len &&
		    same_name(s->strs.v + e->name_off, t->s, t->len))
			return true;
	}
	return false;
}

/* The calls the body is inside at this token: bit k of `open` says paren
 * level k+1 is a call of callee[k]. */
typedef struct {
	uint64_t open;
	Tok callee[64];
} OpenCalls;

/* t, an identifier of the body, may be a deferred pointer parameter: does
 * this use reach through it?  The enclosing callees are looked up only
 * here, for a parameter's own name: most calls of a body never are. */
static void note_ptr_param(D *d, const Tok *t, const Tok *prev, const OpenCalls *oc)
{
	for (int k = 0; k < d->s->ptr_params.n; k++) {
		PtrParam *pp = &d->s->ptr_params.v[k];
		if (pp->through || t->s == pp->name || pp->name_len != t->len || !same_name(pp->name, t->s, t->len))
			continue; /* (the declarator of a local itself is no use) */
		Tok n = peek(d);
		pp->through = is_p(&n, P_ARROW) || is_p(&n, '[') || is_p(&n, '+') || is_p(&n, '-') ||
			      is_p(prev, '*') || is_p(prev, '+') || is_p(prev, '-');
		for (int c = 0; c < 64 && !pp->through; c++)
			if (oc->open >> c & 1)
				pp->through = !own_function(d, &oc->callee[c]);
	}
}

/* After the tag keyword at the start of a statement of a body: a local
 * "struct T *name =" (or ; , )) waits like a parameter (PtrParam); the
 * tag name is read, the declarator is left for the caller. */
static bool defer_ptr_local(D *d)
{
	Tok n = peek(d), star = peek_at(d, 1);
	if (n.kind != T_IDENT || n.kw || !is_p(&star, '*'))
		return false;
	int k = 2;
	for (; k < 6; k++) {
		Tok a = peek_at(d, k);
		if (!is_p(&a, '*') && !(a.kind == T_IDENT && a.kw == KW_QUAL))
			break;
	}
	if (k >= 6)
		return false;
	Tok name = peek_at(d, k), after = peek_at(d, k + 1);
	if (name.kind != T_IDENT || name.kw ||
	    !(is_p(&after, '=') || is_p(&after, ';') || is_p(&after, ',') || is_p(&after, ')')))
		return false;
	next(d);
	PtrParam pp = {.tag = n.s, .tag_len = n.len, .name = name.s, .name_len = name.len, .line = n.line,
		       .flags = UF_TAG | UF_CODE};
	vec_push(&d->s->ptr_params, pp);
	return true;
}

static void body_tokens(D *d);

/* Reads the body and, once the outermost body (a function's, or a ({ })
 * of an initializer) is done, records the deferred tag uses. */
static void parse_function_body(D *d, bool is_macro_body)
{
	(void)is_macro_body;
	d->body_nesting++;
	body_tokens(d);
	if (--d->body_nesting == 0)
		flush_ptr_params(d);
}

/*
 * A function body, after its '{'.  A local is an identifier that ends a
 * run of type-like tokens from the start of a statement ("unsigned long
 * flags =", "struct page *page;") or follows a ',' in such a declaration;
 * a label is "name:" at the start of a statement.
 */
static void body_tokens(D *d)
{
	OpenCalls calls = {0};
	int depth = 1;
	int run = 0;           /* type-like tokens since the statement began; -1: not a declaration */
	bool in_decl = false;  /* after a local was declared, until ';' */
	int decl_depth = 0;    /* paren depth of that declaration */
	int paren = 0;
	bool for_head = false; /* "for (" starts a statement too */
	Tok prev = {.kind = T_PUNCT, .c = '{'};
	for (;;) {
		Tok t = next(d);
		if (t.kind == T_EOF)
			return;
		if (t.kind == T_PUNCT) {
			switch (t.c) {
			case '{':
				depth++;
				run = 0;
				in_decl = false;
				break;
			case '}':
				if (--depth == 0)
					return;
				run = 0;
				in_decl = false;
				break;
			case ';':
				run = 0;
				if (paren <= decl_depth)
					in_decl = false;
				break;
			case '(':
				paren++;
				if (paren <= 64 && prev.kind == T_IDENT && !prev.kw) {
					calls.open |= 1ull << (paren - 1);
					calls.callee[paren - 1] = prev;
				}
				run = for_head ? 0 : -1;
				for_head = false;
				break;
			case ')':
				if (paren > 0 && paren <= 64)
					calls.open &= ~(1ull << (paren - 1));
				if (paren > 0)
					paren--;
				run = -1;
				break;
			case ',':
				run = -1;
				break;
			case '*':
				if (run > 0)
					run++;
				break;
			default:
				run = -1;
				break;
			}
			prev = t;
			continue;
		}
		if (t.kind != T_IDENT) {
			run = -1;
			prev = t;
			continue;
		}
		if (t.kw == KW_TAG) {
			if (run != 0 || !defer_ptr_local(d))
				tag_use(d, true);
			if (run >= 0)
				run++;
			prev = (Tok){.kind = T_BODY};
			continue;
		}
		if (t.kw == KW_GOTO) {
			Tok l = peek(d);
			if (l.kind == T_IDENT)
				next(d);
			run = -1;
			prev = t;
			continue;
		}
		if (t.kw == KW_OTHER && word_is(&t, "for")) {
			for_head = true;
			run = -1;
			prev = t;
			continue;
		}
		if (t.kw == KW_TYPE || t.kw == KW_QUAL || t.kw == KW_TYPEDEF || t.kw == KW_EXTERN) {
			if (run >= 0)
				run++;
			prev = t;
			continue;
		}
		if (t.kw) {
			run = -1;
			prev = t;
			continue;
		}
		if (is_p(&prev, '.') || is_p(&prev, P_ARROW)) {
			run = -1;
			prev = t;
			continue;
		}
		if (d->s->ptr_params.n)
			note_ptr_param(d, &t, &prev, &calls);
		Tok n = peek(d);
		bool ends_declarator = is_p(&n, '=') || is_p(&n, ';') || is_p(&n, ',') || is_p(&n, '[') ||
				       (n.kind == T_IDENT && (n.kw == KW_ATTR || attr_macro(n.s, n.len)));
		if ((is_p(&prev, ';') || is_p(&prev, '{') || is_p(&prev, '}')) && is_p(&n, ':') && run == 0) {
			prev = t; /* a label */
			run = -1;
			continue;
		}
		if (ends_declarator && run > 0 && typeish(&prev)) {
			add_local(d, &t); /* "type name =" */
			in_decl = true;
			decl_depth = paren;
			run = -1;
			prev = t;
			continue;
		}
		if (ends_declarator && in_decl && paren == decl_depth &&
		    (is_p(&prev, ',') || (is_p(&prev, '*') && run == -1))) {
			/* "int a = 1, *b;": b (the '*' run after a comma) */
			add_local(d, &t);
			prev = t;
			continue;
		}
		code_use(d, &t, 0);
		if (run >= 0)
			run++;
		prev = t;
	}
}

/* Reads a member declaration list or enumerator list after its '{', up to
 * and including the matching '}'. */
static void parse_aggregate(D *d, bool is_enum)
{
	Tok prev = {.kind = T_PUNCT, .c = '{'};
	int paren = 0;
	int run = 0;       /* type-like tokens since the member declaration began */
	bool bits = false; /* after ':' of a bit-field */
	/* a function pointer member's parameter list: "(*name)(type a, ...)";
	 * its parameter names are names, not uses */
	bool fp_name = false, fp_expect = false;
	int fp_level = 0;        /* paren depth inside its parameter list, 0: outside */
	bool fp_typed = false;   /* a type since the parameter began */
	for (;;) {
		Tok t = next(d);
		if (t.kind == T_EOF)
			return;
		if (t.kind == T_PUNCT) {
			if (t.c == '}' && paren == 0)
				return;
			bool expect = fp_expect;
			fp_expect = false;
			if (t.c == '(') {
				paren++;
				if (expect && paren == 1) {
					fp_level = 1;
					fp_typed = false;
				}
			} else if (t.c == ')' && paren > 0) {
				paren--;
				if (paren < fp_level)
					fp_level = 0;
				if (!paren && fp_name) {
					fp_name = false;
					fp_expect = true;
				}
			} else if (t.c == ',' && fp_level && paren == fp_level) {
				fp_typed = false;
			} else if (t.c == '{') {
				/* a body inside parentheses: a statement expression */
				if (paren)
					parse_function_body(d, false);
			} else if (t.c == ';' && paren == 0) {
				run = 0;
				bits = false;
			} else if (t.c == ',' && paren == 0) {
				bits = false;
			} else if (t.c == ':' && paren == 0) {
				bits = true;
			} else if (t.c == '*') {
				if (run > 0)
					run++;
			}
			prev = t;
			continue;
		}
		if (t.kind != T_IDENT) {
			prev = t;
			continue;
		}
		if (is_enum) {
			if (paren == 0 && (is_p(&prev, '{') || is_p(&prev, ','))) {
				if (!t.kw)
					provide(d->s, t.s, t.len, SK_ENUM_CONST, t.line);
			} else if (t.kw == KW_TAG) {
				tag_use(d, true);
			} else if (!(is_p(&prev, '.') || is_p(&prev, P_ARROW))) {
				code_use(d, &t, 0);
			}
			prev = t;
			continue;
		}
		if (t.kw == KW_TAG) {
			fp_typed = true;
			Tok n = peek(d);
			bool named = n.kind == T_IDENT && !n.kw;
			Tok b = named ? peek_at(d, 1) : n;
			if (is_p(&b, '{')) {
				if (named) {
					next(d);
					provide(d->s, n.s, n.len, SK_TAG_DEF, n.line);
				}
				next(d);
				parse_aggregate(d, word_is(&t, "enum"));
			} else {
				tag_use(d, false);
			}
			prev = (Tok){.kind = T_BODY};
			if (run >= 0)
				run++;
			continue;
		}
		if (t.kw) {
			if (t.kw == KW_TYPE || t.kw == KW_QUAL)
				run += run >= 0;
			if (t.kw == KW_TYPE)
				fp_typed = true;
			prev = t;
			continue;
		}
		if (is_p(&prev, '.') || is_p(&prev, P_ARROW)) {
			prev = t;
			continue;
		}
		Tok n = peek(d);
		if (fp_level && paren == fp_level) {
			bool name = fp_typed && (is_p(&n, ',') || is_p(&n, ')') || is_p(&n, '[') ||
						 (n.kind == T_IDENT && (n.kw == KW_ATTR || attr_macro(n.s, n.len))));
			if (!name)
				code_use(d, &t, 0);
			fp_typed = true;
			prev = t;
			continue;
		}
		bool member = false;
		if (!bits && paren == 0 && (run > 0 || is_p(&prev, ',')) && (typeish(&prev) || is_p(&prev, ',')))
			member = is_p(&n, ';') || is_p(&n, ',') || is_p(&n, '[') || is_p(&n, ':') ||
				 (n.kind == T_IDENT && (n.kw == KW_ATTR || attr_macro(n.s, n.len)));
		/* a function pointer member: "(*name)(...)" */
		if (!bits && paren == 1 && is_p(&prev, '*') && is_p(&n, ')')) {
			member = true;
			fp_name = true;
		}
		if (!member)
			code_use(d, &t, 0);
		if (run >= 0)
			run++;
		prev = t;
	}
}

/* ---- file scope ---- */

typedef struct {
	int start, end; /* stmt token range of one declarator */
} Range;

/* v[i] is the tag keyword of "struct T *...name" in a function
 * definition's parameter list: its use waits for the body (PtrParam). */
static bool defer_ptr_param(D *d, const Tok *v, int i, int to, int flags)
{
	int j = i + 2;
	while (j < to && (is_p(&v[j], '*') || (v[j].kind == T_IDENT && v[j].kw == KW_QUAL)))
		j++;
	if (j + 1 >= to || v[j].kind != T_IDENT || v[j].kw || !(is_p(&v[j + 1], ',') || is_p(&v[j + 1], ')')))
		return false;
	PtrParam pp = {.tag = v[i + 1].s, .tag_len = v[i + 1].len, .name = v[j].s, .name_len = v[j].len,
		       .line = v[i + 1].line, .flags = flags};
	vec_push(&d->s->ptr_params, pp);
	return true;
}

/* The body has been read: each deferred parameter's tag is used, with
 * the complete type when the body reached through the pointer. */
static void flush_ptr_params(D *d)
{
	for (int k = 0; k < d->s->ptr_params.n; k++) {
		const PtrParam *pp = &d->s->ptr_params.v[k];
		use(d->s, pp->tag, pp->tag_len, pp->flags | (pp->through ? UF_COMPLETE : 0), pp->line);
	}
	d->s->ptr_params.n = 0;
}

/* Uses of every identifier in stmt[from, to) except skip[] (declared names)
 * and identifiers after '.'. */
static void stmt_uses(D *d, const Tok *v, int from, int to, const bool *skip, bool complete, bool extern_decl)
{
	int paren = 0;
	for (int i = from; i < to; i++) {
		const Tok *t = &v[i];
		if (t->kind == T_PUNCT && t->c == '(')
			paren++;
		else if (t->kind == T_PUNCT && t->c == ')' && paren > 0)
			paren--;
		if (t->kind != T_IDENT || skip[i])
			continue;
		if (t->kw == KW_TAG) {
			if (i + 1 < to && v[i + 1].kind == T_IDENT && !v[i + 1].kw && !skip[i + 1]) {
				int flags = UF_TAG | UF_CODE;
				/* a function definition's parameters are used in its
				 * body: p->member needs the complete type */
				bool ptr = i + 2 < to && is_p(&v[i + 2], '*');
				if (extern_decl && paren == 0)
					; /* "extern struct s v;": s may be incomplete */
				else if (!ptr)
					flags |= UF_COMPLETE;
				else if (paren > 0)
					flags |= UF_DECLARE;
				if (complete && ptr && paren > 0 && defer_ptr_param(d, v, i, to, flags)) {
					i++;
					continue;
				}
				if (complete && ptr && paren > 0)
					flags |= UF_COMPLETE; /* not a plain "struct T *name" */
				use(d->s, v[i + 1].s, v[i + 1].len, flags, v[i + 1].line);
				i++;
			}
			continue;
		}
		if (t->kw)
			continue;
		if (i > from && (is_p(&v[i - 1], '.') || is_p(&v[i - 1], P_ARROW)))
			continue;
		use(d->s, t->s, t->len, UF_CODE, t->line);
	}
}

/* Index of the token closing the group opened at v[i] ('(' or '['), or n. */
static int close_of(const Tok *v, int i, int n)
{
	char open = v[i].c, close = open == '(' ? ')' : ']';
	int depth = 0;
	for (int j = i; j < n; j++) {
		if (is_p(&v[j], open))
			depth++;
		else if (is_p(&v[j], close) && --depth == 0)
			return j;
	}
	return n;
}

/* Marks parameter names in the group v(lp, rp) as not uses; when body is
 * true they also become locals of the function that follows. */
static void mark_params(D *d, const Tok *v, int lp, int rp, bool *skip, bool body)
{
	int depth = 0;
	for (int i = lp + 1; i < rp; i++) {
		if (!depth && is_p(&v[i], '(') && i + 2 < rp && is_p(&v[i + 1], '*')) {
			/* a function pointer parameter, "(*cb)(void *p)": cb and
			 * the names of its own parameters are names, not uses */
			int m = i + 1;
			while (m < rp && (is_p(&v[m], '*') || (v[m].kind == T_IDENT && v[m].kw == KW_QUAL)))
				m++;
			if (m + 1 < rp && v[m].kind == T_IDENT && !v[m].kw && is_p(&v[m + 1], ')')) {
				skip[m] = true;
				if (body)
					add_local(d, &v[m]);
				i = m + 1;
				if (i + 1 < rp && is_p(&v[i + 1], '(')) {
					int inner = close_of(v, i + 1, rp);
					mark_params(d, v, i + 1, inner, skip, false);
					i = inner;
				}
				continue;
			}
		}
		if (is_p(&v[i], '(') || is_p(&v[i], '['))
			depth++;
		else if (is_p(&v[i], ')') || is_p(&v[i], ']'))
			depth--;
		if (depth || v[i].kind != T_IDENT || v[i].kw)
			continue;
		const Tok *p = &v[i - 1], *n = &v[i + 1];
		bool after_tag = i >= 2 && v[i - 1].kind == T_IDENT && v[i - 1].kw == KW_TAG;
		if (after_tag || !typeish(p) || is_p(p, '('))
			continue;
		if (p->kind == T_PUNCT && p->c == '*') {
			/* "type *name": a type must come before the stars */
			int j = i - 1;
			while (j > lp && (is_p(&v[j], '*') || (v[j].kind == T_IDENT && v[j].kw == KW_QUAL)))
				j--;
			if (j <= lp || is_p(&v[j], ',') || is_p(&v[j], '('))
				continue;
		} else if (i - 1 == lp || is_p(&v[i - 2], ',') || is_p(&v[i - 2], '(')) {
			/* a single identifier after '(' or ',' is a type: "f(size_t)" */
			if (!(v[i - 1].kind == T_IDENT || v[i - 1].kind == T_BODY))
				continue;
		}
		if (is_p(n, ',') || is_p(n, ')') || is_p(n, '[') ||
		    (n->kind == T_IDENT && (n->kw == KW_ATTR || attr_macro(n->s, n->len)))) {
			skip[i] = true;
			if (body)
				add_local(d, &v[i]);
		}
	}
}

/*
 * One file-scope declaration, without its ';' (or before its body when
 * body is true).  Finds the declared names, provides them, and counts
 * every other identifier as a use.
 */
static void process_decl(D *d, Tok *v, int n, bool body)
{
	DeclScratch *s = d->s;
	if (n <= 0)
		return;
	bool *skip = xcalloc((size_t)n + 1, 1);
	bool is_typedef = false, is_extern = false, is_static = false;
	for (int i = 0, depth = 0; i < n; i++) {
		if (v[i].kind == T_IDENT && v[i].kw == KW_TYPEDEF)
			is_typedef = true;
		if (v[i].kind == T_IDENT && v[i].kw == KW_EXTERN)
			is_extern = true;
		/* not a macro's argument: glibc's
		 * "__libc_lock_define_initialized (static, lock)" before a
		 * function with external linkage */
		if (is_p(&v[i], '(') || is_p(&v[i], '['))
			depth++;
		else if ((is_p(&v[i], ')') || is_p(&v[i], ']')) && depth > 0)
			depth--;
		else if (depth == 0 && v[i].kind == T_IDENT && v[i].kw == KW_QUAL && word_is(&v[i], "static"))
			is_static = true;
	}
	/* "struct S;" */
	if (n == 2 && v[0].kw == KW_TAG && v[1].kind == T_IDENT && !v[1].kw) {
		provide(s, v[1].s, v[1].len, SK_TAG_DECL, v[1].line);
		free(skip);
		return;
	}
	/* A leading macro call: DECLARE_PER_CPU(int, x), static DEFINE_MUTEX(m),
	 * EXPORT_SYMBOL(f), __printf(1, 2) before a prototype ... */
	int i = 0;
	while (i < n && v[i].kind == T_IDENT && v[i].kw == KW_QUAL)
		i++;
	if (i + 1 < n && v[i].kind == T_IDENT && !v[i].kw && is_p(&v[i + 1], '(')) {
		int rp = close_of(v, i + 1, n);
		if (rp >= n - 1 && !body && !is_decl_macro(v[i].s, v[i].len)) {
			/* TRACE_EVENT(name, ...), TASK_PFA_TEST(X, name): what it
			 * makes is unknown; its identifier arguments are seeds */
			for (int j = i + 2; j < rp; j++)
				if (v[j].kind == T_IDENT && !v[j].kw && v[j].len >= 3 &&
				    (is_p(&v[j - 1], '(') || is_p(&v[j - 1], ',')) &&
				    (is_p(&v[j + 1], ')') || is_p(&v[j + 1], ',')))
					provide(s, v[j].s, v[j].len, SK_SEED, v[j].line);
		}
		if (rp >= n - 1 && !body && is_decl_macro(v[i].s, v[i].len)) {
			/* every argument that is one identifier is (weakly) declared */
			int argstart = i + 2, depth = 0;
			for (int j = i + 2; j <= rp && j < n; j++) {
				if (is_p(&v[j], '(') || is_p(&v[j], '['))
					depth++;
				else if ((is_p(&v[j], ')') || is_p(&v[j], ']')) && depth > 0)
					depth--;
				else if (depth == 0 && (is_p(&v[j], ',') || j == rp)) {
					if (j - argstart == 1 && v[argstart].kind == T_IDENT && !v[argstart].kw) {
						provide(s, v[argstart].s, v[argstart].len, SK_DECL_MACRO, v[argstart].line);
						skip[argstart] = true;
					}
					argstart = j + 1;
				}
			}
			stmt_uses(d, v, 0, n, skip, body, false);
			free(skip);
			return;
		}
	}
	/* Declarators: split at top-level commas. */
	int depth = 0, seg = 0;
	bool in_init = false;
	bool seen_type = false; /* the first declarator has had its specifiers */
	for (int k = 0; k <= n; k++) {
		bool end = k == n;
		if (!end) {
			if (is_p(&v[k], '(') || is_p(&v[k], '['))
				depth++;
			else if (is_p(&v[k], ')') || is_p(&v[k], ']'))
				depth--;
			if (depth == 0 && is_p(&v[k], '='))
				in_init = true;
			if (!(depth == 0 && is_p(&v[k], ',')))
				continue;
		}
		(void)in_init;
		/* declarator segment v[seg, k) */
		int name = -1, params = -1;
		bool func = false;
		int last_ident = -1;
		int cands[16], ncands = 0; /* identifiers that came after the type */
		bool typed = seen_type;
		for (int j = seg; j < k; j++) {
			Tok *t = &v[j];
			if (is_p(t, '=') || is_p(t, '[') || is_p(t, ':'))
				break;
			if (t->kind == T_IDENT && t->kw == KW_ATTR) {
				if (j + 1 < k && is_p(&v[j + 1], '('))
					j = close_of(v, j + 1, k);
				continue;
			}
			if (t->kind == T_IDENT && t->kw == KW_TAG) {
				if (j + 1 < k && v[j + 1].kind == T_IDENT && !v[j + 1].kw)
					j++;
				typed = true;
				continue;
			}
			if (t->kind == T_IDENT && t->kw == KW_OTHER) {
				/* typeof(...) */
				if (j + 1 < k && is_p(&v[j + 1], '('))
					j = close_of(v, j + 1, k);
				typed = true;
				continue;
			}
			if (t->kind == T_IDENT && t->kw) {
				if (t->kw == KW_TYPE)
					typed = true;
				continue;
			}
			if (t->kind == T_BODY) {
				typed = true;
				continue;
			}
			if (t->kind == T_IDENT) {
				if (j + 2 < k && is_p(&v[j + 1], '(') && is_p(&v[j + 2], '*')) {
					/* "T (*name)(...)": T is the type of a pointer
					 * declarator, not a macro or function name */
					typed = true;
					last_ident = j;
					continue;
				}
				if (j + 1 < k && is_p(&v[j + 1], '(')) {
					int rp = close_of(v, j + 1, k);
					if (attr_macro(t->s, t->len) || !(typed || last_ident >= 0)) {
						j = rp; /* __printf(1, 2), or a macro before the type */
						continue;
					}
					name = j;
					func = true;
					params = j + 1;
					break;
				}
				if (last_ident >= 0 || typed) {
					typed = true;
					if (ncands < 16)
						cands[ncands++] = j;
				}
				last_ident = j;
				continue;
			}
			if (is_p(t, '(') && j + 2 < k && is_p(&v[j + 1], '*')) {
				/* (*name)(...) or (*name)[...] */
				int m = j + 1;
				while (m < k && (is_p(&v[m], '*') || (v[m].kind == T_IDENT && v[m].kw == KW_QUAL)))
					m++;
				if (m < k && v[m].kind == T_IDENT && !v[m].kw) {
					name = m;
					int rp = close_of(v, j, k);
					if (rp + 1 < k && is_p(&v[rp + 1], '('))
						params = rp + 1;
				}
				break;
			}
		}
		if (name < 0 && ncands > 0) {
			/* the last candidate, unless it is an attribute macro and an
			 * earlier one is not: "extern int x __read_mostly" */
			int c = ncands - 1;
			while (c >= 0 && attr_word(v[cands[c]].s, v[cands[c]].len))
				c--;
			if (c < 0)
				last_ident = -1; /* "} __randomize_layout;" declares nothing */
			else if (c == ncands - 1 && c > 0 && v[cands[c]].len > 2 && !memcmp(v[cands[c]].s, "__", 2) &&
			    memcmp(v[cands[c - 1]].s, "__", 2) && !(k > cands[c] + 1 && is_p(&v[cands[c] + 1], '[')))
				c--;
			if (c >= 0)
				name = cands[c];
		}
		if (name < 0 && last_ident >= 0 && (typed || seg > 0))
			name = last_ident;
		if (name < 0 && last_ident >= 0 && seg == 0) {
			/* "x;" alone: an old-style int declaration; also a lone
			 * macro invocation.  Not a declaration we trust. */
			name = -1;
		}
		if (name >= 0) {
			skip[name] = true;
			int kind = is_typedef ? SK_TYPEDEF
				   : func     ? (body ? SK_FUNC_DEF : SK_FUNC_DECL)
				   : is_extern ? SK_VAR_DECL
					       : SK_VAR_DEF;
			if (params >= 0 && !is_typedef && !func)
				kind = is_extern ? SK_VAR_DECL : SK_VAR_DEF; /* a function pointer */
			provide_flags(s, v[name].s, v[name].len, kind, kind == SK_FUNC_DEF && is_static ? PF_STATIC : 0,
				      v[name].line);
			if (params >= 0) {
				int rp = close_of(v, params, k);
				mark_params(d, v, params, rp < k ? rp : k - 1, skip, body && func);
			}
		}
		seen_type = true;
		seg = k + 1;
		in_init = false;
	}
	/* an extern variable declaration without an initializer needs no
	 * complete type; a function's does (its callers pass it by value) */
	bool extern_decl = is_extern && !is_typedef && !body;
	int depth0 = 0;
	for (int k = 0; k < n && extern_decl; k++) {
		if (is_p(&v[k], '(') || is_p(&v[k], '['))
			depth0++;
		else if (is_p(&v[k], ')') || is_p(&v[k], ']'))
			depth0--;
		else if (!depth0 && is_p(&v[k], '='))
			extern_decl = false;
		if (depth0 && k > 0 && is_p(&v[k], '(') && v[k - 1].kind == T_IDENT && !v[k - 1].kw)
			extern_decl = false; /* a function: f(...) */
	}
	stmt_uses(d, v, 0, n, skip, body, extern_decl);
	free(skip);
}

/* Reads one file-scope declaration or function definition. */
static void parse_external(D *d)
{
	DeclScratch *s = d->s;
	s->stmt.n = 0;
	int paren = 0;
	for (;;) {
		Tok t = next(d);
		if (t.kind == T_EOF) {
			process_decl(d, s->stmt.v, s->stmt.n, false);
			return;
		}
		if (t.kind == T_PUNCT && (t.c == '(' || t.c == '['))
			paren++;
		else if (t.kind == T_PUNCT && (t.c == ')' || t.c == ']') && paren > 0)
			paren--;
		if (paren == 0 && is_p(&t, ';')) {
			process_decl(d, s->stmt.v, s->stmt.n, false);
			return;
		}
		if (is_p(&t, '}') && paren == 0) {
			if (!s->stmt.n && d->linkage > 0) {
				/* the end of an extern "C" { block: its brace was
				 * never counted (string.h's extern "C++" { ... }
				 * under #ifdef __CORRECT_ISO_CPP_STRING_H_PROTO must
				 * leave the #else branch's strchr() to be parsed) */
				d->linkage--;
				d->balance++;
			}
			process_decl(d, s->stmt.v, s->stmt.n, false);
			return; /* stray: unbalanced conditional text */
		}
		if (is_p(&t, '{')) {
			int n = s->stmt.n;
			Tok *v = s->stmt.v;
			if (paren > 0) {
				/* ({ ... }) in an initializer or typeof */
				parse_function_body(d, false);
				vec_push(&s->stmt, ((Tok){.kind = T_BODY, .line = t.line}));
				continue;
			}
			if (n == 2 && v[0].kind == T_IDENT && v[0].kw == KW_EXTERN && v[1].kind == T_OTHER &&
			    v[1].s[0] == '"') {
				/* extern "C" { (under #ifdef __cplusplus): a linkage
				 * block, not a body.  What follows is file scope; its
				 * closing brace comes as a stray one; its includes are
				 * not nested in braces. */
				d->balance--;
				d->linkage++;
				s->stmt.n = 0;
				return;
			}
			int tagk = -1;
			if (n >= 1 && v[n - 1].kind == T_IDENT && v[n - 1].kw == KW_TAG)
				tagk = n - 1;
			else if (n >= 2 && v[n - 2].kind == T_IDENT && v[n - 2].kw == KW_TAG &&
				 v[n - 1].kind == T_IDENT && !v[n - 1].kw)
				tagk = n - 2;
			if (tagk >= 0) {
				if (tagk == n - 2) {
					provide(s, v[n - 1].s, v[n - 1].len, SK_TAG_DEF, v[n - 1].line);
					s->stmt.n -= 2;
				} else {
					s->stmt.n -= 1;
				}
				parse_aggregate(d, word_is(&v[tagk], "enum"));
				vec_push(&s->stmt, ((Tok){.kind = T_BODY, .line = t.line}));
				continue;
			}
			bool init = false;
			for (int i = 0; i < n; i++)
				if (is_p(&v[i], '='))
					init = true;
			if (init) {
				parse_initializer(d);
				vec_push(&s->stmt, ((Tok){.kind = T_BODY, .line = t.line}));
				continue;
			}
			/* a function definition */
			clear_locals(s);
			s->ptr_params.n = 0;
			process_decl(d, s->stmt.v, s->stmt.n, true);
			parse_function_body(d, false);
			clear_locals(s);
			return;
		}
		vec_push(&s->stmt, t);
	}
}

/* ---- directives from the facts ---- */

/* Uses in a #define body or #if expression; params[] are not uses. */
/* A start of names worth tracking through a paste: two characters or
 * more besides underscores ("out", "PG_"; not "_", "__" or "x_"), which
 * would tie a file to every header with a name that starts so. */
static bool telling_prefix(const char *p, uint32_t n)
{
	while (n && *p == '_')
		p++, n--;
	while (n && p[n - 1] == '_')
		n--;
	return n >= 2;
}

static void text_uses(DeclScratch *s, const char *p, size_t len, uint32_t line, int flags,
		      const char *params, size_t params_len, bool in_if)
{
	const char *end = p + len;
	const char *prev_punct = NULL;
	while (p < end) {
		char c = *p;
		if (c == '"' || c == '\'') {
			char q = c;
			for (p++; p < end && *p != q; p++)
				if (*p == '\\' && p + 1 < end)
					p++;
			p++;
			prev_punct = NULL;
			continue;
		}
		if (text_ident_start(c)) {
			const char *q = text_ident_end(p, end);
			uint32_t n = (uint32_t)(q - p);
			bool member = prev_punct && (*prev_punct == '.' || *prev_punct == '>');
			bool skip = member;
			if (!skip && params) {
				/* a parameter name */
				const char *a = params, *ae = params + params_len;
				while (a < ae && !skip) {
					while (a < ae && !text_ident_start(*a))
						a++;
					const char *b = text_ident_end(a, ae);
					if ((uint32_t)(b - a) == n && !memcmp(a, p, n))
						skip = true;
					a = b;
				}
				if (n == 11 && !memcmp(p, "__VA_ARGS__", 11))
					skip = true;
				if (n == 10 && !memcmp(p, "__VA_OPT__", 10))
					skip = true;
			}
			if (!skip && in_if && n == 7 && !memcmp(p, "defined", 7))
				skip = true;
			if (!skip && in_if && n >= 13 && !memcmp(p, "__has_include", 13)) {
				/* skip the header name */
				while (q < end && *q != ')')
					q++;
				skip = true;
			}
			int kw = classify(p, n);
			if (!skip && kw == KW_TAG) {
				const char *r = q;
				while (r < end && (*r == ' ' || *r == '\t'))
					r++;
				const char *e2 = r;
				while (e2 < end && text_ident_char(*e2))
					e2++;
				if (e2 > r && classify(r, (uint32_t)(e2 - r)) == KW_NONE) {
					use(s, r, (uint32_t)(e2 - r), flags | UF_TAG | UF_COMPLETE, line);
					q = e2;
				}
			} else if (!skip && !kw && !(c >= '0' && c <= '9')) {
				/* NAME##param in a macro body makes names that start
				 * with NAME (out##bwl: outb, outw, outl): recorded as
				 * the use "NAME##", which no declaration provides */
				bool paste = (flags & UF_MACRO_BODY) && q + 1 < end && q[0] == '#' && q[1] == '#' &&
					     telling_prefix(p, n);
				use(s, p, paste ? n + 2 : n, flags, line);
				/* ... and a file that defines such a macro may be where
				 * a name with that start comes from (BUILDIO(b, u8)
				 * makes outb_p): a seed "NAME##" */
				if (paste)
					provide(s, p, n + 2, SK_SEED, line);
			}
			p = q;
			prev_punct = NULL;
			continue;
		}
		if (c >= '0' && c <= '9') {
			while (p < end && (text_ident_char(*p) || *p == '.'))
				p++;
			prev_punct = NULL;
			continue;
		}
		if (c != ' ' && c != '\t')
			prev_punct = (c == '>' && p > end - len && p[-1] == '-') || c == '.' ? p : NULL;
		p++;
	}
}

/* Whether line is inside a branch not taken: the branch's own #if,
 * #elif or #ifndef line is not (it was read, and what it tests decides:
 * curl's inet_ntop.c is #ifndef HAVE_INET_NTOP throughout, and
 * "curl_setup.h" defines it) */
static bool is_dead(const uint32_t *dead, int ndead, uint32_t line)
{
	for (int i = 0; i + 1 < ndead; i += 2)
		if (line > dead[i] && line < dead[i + 1])
			return true;
	return false;
}

/* borrow: macro provides name f's strings instead of copies (see
 * Symbols.provide_strs) */
static void directive_facts(DeclScratch *s, const Facts *f, const uint32_t *dead, int ndead, bool borrow)
{
	const Directive *dirs = facts_dirs(f);
	for (uint32_t i = 0; i < f->ndirs; i++) {
		const Directive *d = &dirs[i];
		if (ndead && is_dead(dead, ndead, d->line))
			continue;
		const char *name = facts_name(f, d);
		switch (d->kind) {
		case D_DEFINE:
			if (d->flags & DF_BADNAME)
				break;
			if (!borrow) {
				provide(s, name, d->name_len, SK_MACRO, d->line);
			} else if (d->name_len && d->name_len <= 0xffff) { /* as provide() */
				SymEntry e = {.name_off = d->name_off, .name_len = (uint16_t)d->name_len,
					      .kind = SK_MACRO, .line = d->line};
				vec_push(&s->prov, e);
			}
			text_uses(s, facts_text(f, d), d->text_len, d->line, UF_MACRO_BODY,
				  (d->flags & DF_FUNCLIKE) ? facts_strs(f) + d->args_off : NULL,
				  (d->flags & DF_FUNCLIKE) ? d->args_len : 0, false);
			break;
		case D_IFDEF:
		case D_IFNDEF:
		case D_ELIFDEF:
		case D_ELIFNDEF:
			if (!(d->flags & DF_BADNAME))
				use(s, name, d->name_len, UF_COND, d->line);
			break;
		case D_IF:
		case D_ELIF:
			text_uses(s, facts_text(f, d), d->text_len, d->line, UF_COND, NULL, 0, true);
			break;
		case D_INCLUDE:
		case D_INCLUDE_NEXT:
			if (d->flags & DF_COMPUTED)
				text_uses(s, facts_text(f, d), d->text_len, d->line, UF_COND, NULL, 0, false);
			break;
		default:
			break;
		}
	}
}

/* ---- pragmas ---- */

static bool word_at(const char **p, const char *end, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(end - *p) < n || memcmp(*p, w, n) || (*p + n < end && text_ident_char((*p)[n])))
		return false;
	*p += n;
	return true;
}

static void skip_blanks(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
}

/* The header a pragma names: "x.h" or <x.h>, kept as written. */
static void pragma_header(DeclScratch *s, SymEntry *e, const char *p, const char *end)
{
	skip_blanks(&p, end);
	if (p >= end || (*p != '"' && *p != '<'))
		return;
	char close = *p == '<' ? '>' : '"';
	const char *q = p + 1;
	while (q < end && *q != close && *q != '\n')
		q++;
	if (q >= end || *q != close || q - p > 250)
		return;
	e->name_off = add_str(s, p, (uint32_t)(q + 1 - p));
	e->name_len = (uint16_t)(q + 1 - p);
}

/*
 * IWYU pragmas and hdrslim's own, in comments: "// IWYU pragma: keep",
 * "/" "* hdrslim: keep *" "/", each accepted only right after the comment's
 * opener (blanks aside).  The tokenizer calls this at every comment it
 * skips (p just past the opener), so a marker inside a string is none.
 */
static void comment_pragma(DeclScratch *s, const char *p, const char *end, uint32_t line)
{
	if (!text_pragma_start(p, end))
		return;
	skip_blanks(&p, end);
	bool iwyu = word_at(&p, end, "IWYU") && (skip_blanks(&p, end), word_at(&p, end, "pragma"));
	if (!iwyu && !word_at(&p, end, "hdrslim"))
		return;
	if (p >= end || *p != ':')
		return;
	p++;
	skip_blanks(&p, end);
	SymEntry e = {.line = line};
	if (word_at(&p, end, "keep"))
		e.kind = PR_KEEP;
	else if (word_at(&p, end, "export"))
		e.kind = PR_EXPORT;
	else if (iwyu && word_at(&p, end, "begin_exports"))
		e.kind = PR_BEGIN_EXPORTS;
	else if (iwyu && word_at(&p, end, "end_exports"))
		e.kind = PR_END_EXPORTS;
	else if (iwyu && word_at(&p, end, "private")) {
		e.kind = PR_PRIVATE;
		skip_blanks(&p, end);
		if (p < end && *p == ',') {
			p++;
			skip_blanks(&p, end);
			if (word_at(&p, end, "include"))
				pragma_header(s, &e, p, end);
		}
	} else if (iwyu && word_at(&p, end, "no_include")) {
		e.kind = PR_NO_INCLUDE;
		pragma_header(s, &e, p, end);
		if (!e.name_len)
			return;
	} else
		return;
	vec_push(&s->pragmas, e);
}

/* ---- entry points ---- */

DeclScratch *decl_scratch_new(void)
{
	pthread_once(&kw_once, kw_init);
	return xcalloc(1, sizeof(DeclScratch));
}

void decl_scratch_free(DeclScratch *s)
{
	if (!s)
		return;
	vec_free(&s->prov);
	vec_free(&s->uses);
	vec_free(&s->pragmas);
	vec_free(&s->strs);
	vec_free(&s->stmt);
	vec_free(&s->locals);
	vec_free(&s->ptr_params);
	free(s->slots);
	vec_free(&s->filled);
	free(s);
}

static void scratch_reset(DeclScratch *s)
{
	s->prov.n = s->uses.n = s->pragmas.n = s->strs.n = s->stmt.n = 0;
	clear_locals(s);
	for (int i = 0; i < s->filled.n; i++)
		s->slots[s->filled.v[i]].idx = -1;
	s->filled.n = 0;
	s->nused = 0;
}

static void parse_file(DeclScratch *s, const char *buf, size_t len, const Facts *f, const uint32_t *dead,
		       int ndead)
{
	scratch_reset(s);
	if (f)
		directive_facts(s, f, dead, ndead, false);
	D d = {.p = buf, .end = buf + len, .line = 1, .bol = true, .s = s};
	while (peek(&d).kind != T_EOF)
		parse_external(&d);
}

Symbols *decl_file(const char *buf, size_t len, const Facts *f, DeclScratch *s)
{
	return decl_file_placed(buf, len, f, s, NULL);
}

static Symbols *symbols_block(DeclScratch *s, const char *provide_strs, const BlockPlace *place);

Symbols *decl_file_placed(const char *buf, size_t len, const Facts *f, DeclScratch *s, const BlockPlace *place)
{
	parse_file(s, buf, len, f, NULL, 0);
	return symbols_block(s, NULL, place);
}

Symbols *decl_file_live(const char *buf, size_t len, const Facts *f, DeclScratch *s,
			const uint32_t *dead, int ndead)
{
	parse_file(s, buf, len, f, dead, ndead);
	return symbols_block(s, NULL, NULL);
}

Symbols *decl_directives(const Facts *f, DeclScratch *s)
{
	scratch_reset(s);
	directive_facts(s, f, NULL, 0, true);
	return symbols_block(s, facts_strs(f), NULL);
}

/* The scratch's findings as one block: where place puts it, else
 * malloc'd. */
static Symbols *symbols_block(DeclScratch *s, const char *provide_strs, const BlockPlace *place)
{
	size_t nent = (size_t)(s->prov.n + s->uses.n + s->pragmas.n);
	size_t used = sizeof(Symbols) + nent * sizeof(SymEntry) + (size_t)s->strs.n;
	size_t size = (used + 7) & ~(size_t)7; /* cacheable: blocks are 8-byte aligned */
	Symbols *out = place ? place->at(place->arg, size) : NULL;
	if (out) {
		memset(out, 0, sizeof(Symbols));
		memset((char *)out + used, 0, size - used);
	} else {
		out = xcalloc(1, size);
	}
	out->size = (uint32_t)size;
	out->nprovides = (uint32_t)s->prov.n;
	out->nuses = (uint32_t)s->uses.n;
	out->npragmas = (uint32_t)s->pragmas.n;
	out->strs_len = (uint32_t)s->strs.n;
	out->provide_strs = provide_strs;
	SymEntry *e = (SymEntry *)(out + 1);
	if (s->prov.n)
		memcpy(e, s->prov.v, (size_t)s->prov.n * sizeof(SymEntry));
	if (s->uses.n)
		memcpy(e + s->prov.n, s->uses.v, (size_t)s->uses.n * sizeof(SymEntry));
	if (s->pragmas.n)
		memcpy(e + s->prov.n + s->uses.n, s->pragmas.v, (size_t)s->pragmas.n * sizeof(SymEntry));
	if (s->strs.n)
		memcpy((char *)(e + nent), s->strs.v, (size_t)s->strs.n);
	return out;
}

const char *sym_kind_name(int kind)
{
	static const char *const names[SK_NKINDS] = {
		"macro", "typedef", "struct", "enum constant", "inline function", "variable",
		"function", "extern variable", "declared by macro", "struct declaration", "seed",
	};
	return kind >= 0 && kind < SK_NKINDS ? names[kind] : "?";
}
