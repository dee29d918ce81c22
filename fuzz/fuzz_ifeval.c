/*
 * fuzz_ifeval.c — libFuzzer target for the macro table, the #if evaluator
 * and computed-#include expansion (src/macro.c).
 *
 * Input: one mode byte, then a C file.
 *   bit 0  unknown_default (union mode) when set, exact mode otherwise
 *   bit 1  input #defines go through mt_define_maybe instead of mt_define
 *   bit 2  input #undefs go through mt_forget instead of mt_undef
 *   bit 3  no __has_include callback (the evaluator must cope with none)
 *
 * Every call builds a fresh Interner and MacroTable, defines a fixed
 * prelude (the Linux kernel's IS_ENABLED machinery from
 * include/linux/kconfig.h, __stringify, recursive / self-referential,
 * variadic and amplifying macros), then lexes the input with lex_file()
 * and walks its directives in order: #define / #undef are applied
 * (whatever the conditionals around them say), #ifdef-style names are
 * looked up with mt_defined(), every #if / #elif is evaluated with
 * mt_eval_if() and every computed #include is expanded with
 * mt_expand_include().  Everything is freed at the end: ASan's leak
 * checker runs after each input.
 *
 * mt_define() keeps pointers into the Facts it was given, so both Facts
 * blocks live until mt_free().
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "intern.h"
#include "lex.h"
#include "macro.h"

static const char prelude[] =
	/* include/linux/kconfig.h */
	"#define __ARG_PLACEHOLDER_1 0,\n"
	"#define __take_second_arg(__ignored, val, ...) val\n"
	"#define __and(x, y) ___and(x, y)\n"
	"#define ___and(x, y) ____and(__ARG_PLACEHOLDER_##x, y)\n"
	"#define ____and(arg1_or_junk, y) __take_second_arg(arg1_or_junk y, 0)\n"
	"#define __or(x, y) ___or(x, y)\n"
	"#define ___or(x, y) ____or(__ARG_PLACEHOLDER_##x, y)\n"
	"#define ____or(arg1_or_junk, y) __take_second_arg(arg1_or_junk 1, y)\n"
	"#define __is_defined(x) ___is_defined(x)\n"
	"#define ___is_defined(val) ____is_defined(__ARG_PLACEHOLDER_##val)\n"
	"#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)\n"
	"#define IS_BUILTIN(option) __is_defined(option)\n"
	"#define IS_MODULE(option) __is_defined(option##_MODULE)\n"
	"#define IS_REACHABLE(option) __or(IS_BUILTIN(option), \\\n"
	"\t\t\t\t__and(IS_MODULE(option), __is_defined(MODULE)))\n"
	"#define IS_ENABLED(option) __or(IS_BUILTIN(option), IS_MODULE(option))\n"
	"#define CONFIG_FOO 1\n"
	"#define CONFIG_BAZ_MODULE 1\n"
	"#define CONFIG_QUX y\n"
	/* include/linux/stringify.h */
	"#define __stringify_1(x...) #x\n"
	"#define __stringify(x...) __stringify_1(x)\n"
	"#define CAT_1(a, b) a##b\n"
	"#define CAT(a, b) CAT_1(a, b)\n"
	/* computed includes */
	"#define HDR \"x.h\"\n"
	"#define AHDR <sys/y.h>\n"
	"#define ARCH x86\n"
	"#define ARCH_HDR(h) __stringify(asm/ARCH/h)\n"
	/* recursive and self-referential */
	"#define X Y\n"
	"#define Y X\n"
	"#define SELF SELF + 1\n"
	"#define F(a) a + G\n"
	"#define G F\n"
	"#define REC(x) REC(x) + x\n"
	"#define AA BB(AA)\n"
	"#define BB(x) x AA\n"
	"#define EMPTY\n"
	"#define LPAREN (\n"
	"#define RPAREN )\n"
	"#define DEFER(id) id EMPTY\n"
	"#define OBSTRUCT(...) __VA_ARGS__ DEFER(EMPTY)()\n"
	"#define EXPAND(...) __VA_ARGS__\n"
	/* variadic, GNU comma elision, __VA_OPT__ */
	"#define COUNT(...) COUNT_(, ##__VA_ARGS__, 3, 2, 1, 0)\n"
	"#define COUNT_(_0, _1, _2, _3, n, ...) n\n"
	"#define VA(fmt, args...) fmt , ## args\n"
	"#define OPT(a, ...) a __VA_OPT__(+ __VA_ARGS__)\n"
	"#define PASTE_OPT(a, ...) a ## __VA_OPT__(1)\n"
	"#define FIRST(a, ...) a\n"
	"#define REST(a, ...) __VA_ARGS__\n"
	/* amplifiers: deep or long expressions from a few input bytes, so
	 * recursion depth and expansion cost get exercised */
	"#define REP4(x) x x x x\n"
	"#define REP16(x) REP4(REP4(x))\n"
	"#define REP256(x) REP16(REP16(x))\n"
	"#define REP64K(x) REP256(REP256(x))\n"
	"#define VREP4(...) __VA_ARGS__ __VA_ARGS__ __VA_ARGS__ __VA_ARGS__\n"
	"#define PASTE4(x) x##x x##x x##x x##x\n"
	/* arithmetic */
	"#define LINUX_VERSION_CODE 396288\n"
	"#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))\n"
	"#define BITS_PER_LONG 64\n"
	"#define INT_MAX 2147483647\n"
	"#define LLONG_MIN (-9223372036854775807LL - 1)\n"
	"#define UMAX 18446744073709551615ULL\n"
	"#define GCC_VERSION (__GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__)\n"
	"#define __GNUC__ 12\n"
	"#define __GNUC_MINOR__ 2\n"
	"#define __GNUC_PATCHLEVEL__ 0\n"
	"#define CHR 'a'\n"
	"#define STR \"str\"\n"
	"#undef NOT_DEFINED\n";

/* __has_include: deterministic answer from the name; "-" means unknown. */
static int has_include(void *ctx, const char *name, bool angled, bool next)
{
	(void)ctx;
	size_t n = strlen(name);
	if (n && name[0] == '-')
		return -1;
	return (int)((n + angled + next) & 1);
}

static void walk(MacroTable *mt, const Facts *f, unsigned mode)
{
	const char *strs = facts_strs(f);
	const Directive *dirs = facts_dirs(f);
	for (uint32_t i = 0; i < f->ndirs; i++) {
		const Directive *d = &dirs[i];
		const char *err = NULL;
		mt->line = d->line;
		switch (d->kind) {
		case D_DEFINE:
			if (mode & 2)
				mt_define_maybe(mt, f, d);
			else
				mt_define(mt, f, d);
			break;
		case D_UNDEF:
			if (d->flags & DF_BADNAME)
				break;
			if (mode & 4)
				mt_forget(mt, strs + d->name_off, d->name_len);
			else
				mt_undef(mt, strs + d->name_off, d->name_len);
			break;
		case D_IFDEF:
		case D_IFNDEF:
		case D_ELIFDEF:
		case D_ELIFNDEF:
			if (!(d->flags & DF_BADNAME))
				(void)mt_defined(mt, strs + d->name_off, d->name_len);
			break;
		case D_IF:
		case D_ELIF: {
			Tri r = mt_eval_if(mt, facts_text(f, d), d->text_len, &err);
			if (r != TRI_FALSE && r != TRI_TRUE && r != TRI_UNKNOWN)
				abort();
			if (err && r != TRI_UNKNOWN)
				abort(); /* documented: malformed => unknown */
			break;
		}
		case D_INCLUDE:
		case D_INCLUDE_NEXT:
			if (d->flags & DF_COMPUTED) {
				bool angled = false;
				char *name = mt_expand_include(mt, facts_text(f, d), d->text_len, &angled);
				if (name && strlen(name) > 1000000)
					abort();
				free(name);
			}
			break;
		default:
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static LexScratch scratch;
	if (size < 1)
		return 0;
	unsigned mode = data[0];
	data++;
	size--;

	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	buf[size] = 0;

	Interner *names = interner_new();
	MacroTable mt;
	mt_init(&mt, names, (mode & 1) != 0);
	if (!(mode & 8)) {
		mt.has_include = has_include;
		mt.has_include_ctx = NULL;
	}
	mt.file = "fuzz.c";
	mt.include_level = 1;

	Facts *pf = lex_file(prelude, sizeof(prelude) - 1, &scratch);
	mt_apply(&mt, pf);

	Facts *f = lex_file(buf, size, &scratch);
	walk(&mt, f, mode);

	mt_free(&mt);
	interner_free(names);
	free(f);
	free(pf);
	free(buf);
	return 0;
}
