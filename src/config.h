/*
 * config.h — what decides a translation unit's headers besides its text:
 * the include search chain, forced -include files and the macros known
 * before the first line (compiler predefines and -D/-U).
 *
 * Configuration comes from compiler-style flags, from each entry of a
 * compile_commands.json, or from the kernel preset (kernel.c).  Flags are
 * gathered in a FlagSet; config_ctx turns a FlagSet into a context id.
 * Contexts and search chains are deduplicated, so a tree whose TUs share
 * flags shares the work of resolving includes.
 *
 * Like sparse, the macro part of a context is written as preprocessor
 * text (a "prelude": the compiler's `-dM -E` output followed by one
 * #define/#undef per -D/-U) and lexed like any file; --show-config prints
 * it.
 */
#ifndef HDRSLIM_CONFIG_H
#define HDRSLIM_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "facts.h"
#include "fs.h"
#include "util.h"

typedef VEC(char *) StrVec;

typedef struct {
	StrVec iquote, I, isystem, idirafter, include;
	StrBuf defines;   /* -D/-U as #define/#undef lines */
	StrVec target;    /* flags that change the compiler's predefines */
	char *compiler;
	bool nostdinc;
	bool any_macro;   /* a -D or -U was given */
} FlagSet;

/* s is one of v's strings. */
bool strvec_has(const StrVec *v, const char *s);

/* Takes one flag at argv[*i] (advancing *i past its operand) when it is
 * one of -I -iquote -isystem -idirafter -include -D -U -nostdinc or a
 * target flag.  Relative paths are resolved against base_dir.  Returns
 * false, leaving *i, for anything else.  Dies on a flag without operand. */
bool flagset_take(FlagSet *fs, int argc, char **argv, int *i, const char *base_dir);
void flagset_free(FlagSet *fs);
void flagset_copy(FlagSet *dst, const FlagSet *src);

typedef struct {
	int *dirs;        /* directory keys, in search order */
	int ndirs;
	int quote_end;    /* dirs[0..quote_end) serve only #include "..." */
	int base;         /* chain this one extends (-1: none) */
	int extra_at;     /* where this chain's own dirs were appended to base */
	bool kernel_generic; /* <asm/x.h> falls back to asm-generic (kernel, no build) */
	char *sig;
	uint64_t sig_hash;
} Chain;

typedef struct {
	int chain;
	int *forced;      /* keys of -include files */
	int nforced;
	bool stdc_predef; /* gcc's implicit -include <stdc-predef.h> (not with -nostdinc) */
	Facts *prelude;   /* macros known before line 1 */
	char *prelude_text;
	char *sig;
	uint64_t sig_hash;
} Ctx;

typedef struct {
	int file;         /* file id */
	int ctx;
} Unit;

typedef struct Config {
	FileTable *ft;
	VEC(Chain) chains;
	VEC(Ctx) ctxs;
	VEC(Unit) units;
	bool exact;            /* a configuration is given: walk TUs as gcc does */
	bool kernel_generic;   /* kernel preset without a build dir */
	char *cc;              /* compiler to ask for system dirs and predefines */
} Config;

void config_init(Config *cfg, FileTable *ft);
void config_free(Config *cfg);

/* Context for this flag set (deduplicated).  With base_chain >= 0, the
 * flag set's -I dirs extend that chain instead of building a new one. */
int config_ctx(Config *cfg, const FlagSet *fs, int base_chain);

/* The compiler's own #include <...> search list (asked once). */
const StrVec *config_system_dirs(Config *cfg);

/* Reads compile_commands.json into units and contexts. Dies on a
 * malformed file with its name and line. */
void config_load_compdb(Config *cfg, const char *path, const FlagSet *extra);

/* Reads clang's compile_flags.txt convention: one flag per line, relative
 * paths against the file's directory.  Returns false when absent. */
bool config_read_flags_file(FlagSet *fs, const char *path);

/* Frees what was learnt from the compiler (search list, predefines). */
void config_release_compiler_info(void);

/* Text of a context's configuration, for --show-config. */
void config_show(Config *cfg, int ctx, StrBuf *out);

#endif
