/*
 * kernel.c — the kernel preset and the -I additions written in Kbuild
 * files.
 *
 * The include dirs and forced includes are those of LINUXINCLUDE in the
 * top Makefile (6.x); with a build directory the generated dirs live
 * there.  Out-of-tree builds also add "-I $(srctree)/$(src) -I $(obj)"
 * for every object (scripts/Makefile.lib); hdrslim adds the source one
 * always, so union mode covers both layouts.  ccflags-y and
 * subdir-ccflags-y lines of each directory's Makefile/Kbuild contribute
 * their -I operands, with $(srctree), $(src), $(obj) and $(objtree)
 * substituted; lines using other variables are skipped.  The target
 * flags are x86's (they decide __x86_64__, __SSE__ and the like when the
 * compiler is asked for its predefined macros in exact mode).
 */
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const kernel_excludes[] = {"tools", "scripts", "usr", NULL};

typedef struct {
	char *arch;
	int ctx;
	int chain;
	FlagSet flags;
} ArchPreset;

typedef struct {
	char *dir;     /* tree-relative */
	StrVec own;    /* ccflags-y -I dirs (absolute) */
	StrVec subdir; /* subdir-ccflags-y -I dirs, inherited */
	StrVec per_file; /* pairs: object stem ("fault"), -I dir, from CFLAGS_fault.o */
	bool parsed;
} DirFlags;

struct Kernel {
	Config *cfg;
	char *src, *build, *default_arch;
	const FlagSet *extra;
	VEC(ArchPreset) arches;
	VEC(DirFlags) dirs;
	/* by dir key: ctx + 1 and DirFlags index + 1 (0: not yet known);
	 * a directory's arch follows from its path, so its key decides */
	int *ctx_of_dir, *flags_of_dir;
	int cap_dir;
};

static bool exists(const char *root, const char *rel)
{
	char *p = xasprintf("%s/%s", root, rel);
	struct stat st;
	bool ok = stat(p, &st) == 0;
	free(p);
	return ok;
}

bool kernel_detect(const char *root_abs)
{
	return exists(root_abs, "Kbuild") && exists(root_abs, "Kconfig") &&
	       exists(root_abs, "include/linux/kconfig.h") && exists(root_abs, "arch");
}

static const char *srcarch(const char *arch)
{
	if (!strcmp(arch, "x86_64") || !strcmp(arch, "i386"))
		return "x86";
	if (!strcmp(arch, "arm64") || !strcmp(arch, "aarch64"))
		return "arm64";
	if (!strcmp(arch, "sparc64"))
		return "sparc";
	if (!strcmp(arch, "sh64"))
		return "sh";
	return arch;
}

static const char *const x86_target_flags[] = {
	"-std=gnu11", "-fshort-wchar", "-funsigned-char", "-fno-common", "-fno-PIE",
	"-mno-sse", "-mno-mmx", "-mno-sse2", "-mno-3dnow", "-mno-avx", "-fcf-protection=branch",
	"-m64", "-mno-80387", "-mno-fp-ret-in-387", "-mno-red-zone", "-mcmodel=kernel", "-O2",
	"-fstack-protector-strong", "-fno-strict-overflow", NULL,
};

static void add_I(FlagSet *fs, const char *base, const char *rel)
{
	vec_push(&fs->I, xasprintf("%s/%s", base, rel));
}

static ArchPreset *arch_preset(Kernel *k, const char *arch)
{
	for (int i = 0; i < k->arches.n; i++)
		if (!strcmp(k->arches.v[i].arch, arch))
			return &k->arches.v[i];
	ArchPreset p = {.arch = xstrdup(arch)};
	FlagSet *fs = &p.flags;
	const char *b = k->build ? k->build : k->src;
	char *a = xasprintf("arch/%s/include", arch);
	char *ag = xasprintf("arch/%s/include/generated", arch);
	char *au = xasprintf("arch/%s/include/uapi", arch);
	char *agu = xasprintf("arch/%s/include/generated/uapi", arch);
	fs->nostdinc = true;
	add_I(fs, k->src, a);
	add_I(fs, b, ag);
	add_I(fs, k->src, "include");
	add_I(fs, b, "include");
	add_I(fs, k->src, au);
	add_I(fs, b, agu);
	add_I(fs, k->src, "include/uapi");
	add_I(fs, b, "include/generated/uapi");
	free(a);
	free(ag);
	free(au);
	free(agu);
	vec_push(&fs->include, xasprintf("%s/include/linux/compiler-version.h", k->src));
	vec_push(&fs->include, xasprintf("%s/include/linux/kconfig.h", k->src));
	vec_push(&fs->include, xasprintf("%s/include/linux/compiler_types.h", k->src));
	sb_adds(&fs->defines, "#define __KERNEL__ 1\n");
	if (!strcmp(arch, "x86"))
		for (int i = 0; x86_target_flags[i]; i++)
			vec_push(&fs->target, xstrdup(x86_target_flags[i]));
	if (k->extra) {
		for (int i = 0; i < k->extra->I.n; i++)
			vec_push(&fs->I, xstrdup(k->extra->I.v[i]));
		if (k->extra->defines.len)
			sb_add(&fs->defines, k->extra->defines.buf, k->extra->defines.len);
		if (k->extra->any_macro)
			fs->any_macro = true;
	}
	p.ctx = config_ctx(k->cfg, fs, -1);
	p.chain = k->cfg->ctxs.v[p.ctx].chain;
	vec_push(&k->arches, p);
	return &k->arches.v[k->arches.n - 1];
}

char *kernel_cmd_file(const char *build, const char *rel_source)
{
	size_t n = strlen(rel_source);
	if (n < 3 || strcmp(rel_source + n - 2, ".c"))
		return NULL;
	const char *slash = strrchr(rel_source, '/');
	const char *base = slash ? slash + 1 : rel_source;
	int dlen = slash ? (int)(slash - rel_source) : 0;
	return xasprintf("%s/%.*s%s.%.*s.o.cmd", build, dlen, rel_source, slash ? "/" : "",
			 (int)(strlen(base) - 2), base);
}

bool kernel_builds(const Kernel *k, const char *rel_source)
{
	if (!k->build)
		return true;
	char *cmdfile = kernel_cmd_file(k->build, rel_source);
	struct stat st;
	bool built = cmdfile && stat(cmdfile, &st) == 0;
	free(cmdfile);
	return built;
}

char *kernel_build_arch(const char *build)
{
	/* the comment is among the first lines (Kbuild writes it third) */
	char head[512];
	char *cfg = path_join(build, ".config");
	FILE *f = fopen(cfg, "rb");
	free(cfg);
	if (!f)
		return NULL;
	size_t n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = 0;
	const char *at = !strncmp(head, "# Linux/", 8) ? head : strstr(head, "\n# Linux/");
	if (!at || at - head >= 200)
		return NULL;
	at += *at == '\n' ? 9 : 8;
	return xstrndup(at, strcspn(at, " \n"));
}

Kernel *kernel_new(Config *cfg, const char *root_abs, const char *arch, const char *build_abs,
		   const FlagSet *extra)
{
	Kernel *k = xcalloc(1, sizeof(*k));
	k->cfg = cfg;
	k->src = xstrdup(root_abs);
	k->build = build_abs ? xstrdup(build_abs) : NULL;
	/* a build directory's configuration is for one architecture: its
	 * arch/ARCH/include is what its TUs read */
	char *build_arch = !arch && build_abs ? kernel_build_arch(build_abs) : NULL;
	k->default_arch = xstrdup(srcarch(arch ? arch : build_arch ? build_arch : "x86"));
	free(build_arch);
	k->extra = extra;
	cfg->kernel_generic = build_abs == NULL;
	arch_preset(k, k->default_arch);
	return k;
}

void kernel_free(Kernel *k)
{
	if (!k)
		return;
	for (int i = 0; i < k->arches.n; i++) {
		free(k->arches.v[i].arch);
		flagset_free(&k->arches.v[i].flags);
	}
	vec_free(&k->arches);
	for (int i = 0; i < k->dirs.n; i++) {
		free(k->dirs.v[i].dir);
		for (int j = 0; j < k->dirs.v[i].own.n; j++)
			free(k->dirs.v[i].own.v[j]);
		for (int j = 0; j < k->dirs.v[i].subdir.n; j++)
			free(k->dirs.v[i].subdir.v[j]);
		for (int j = 0; j < k->dirs.v[i].per_file.n; j++)
			free(k->dirs.v[i].per_file.v[j]);
		vec_free(&k->dirs.v[i].per_file);
		vec_free(&k->dirs.v[i].own);
		vec_free(&k->dirs.v[i].subdir);
	}
	vec_free(&k->dirs);
	free(k->ctx_of_dir);
	free(k->flags_of_dir);
	free(k->src);
	free(k->build);
	free(k->default_arch);
	free(k);
}

/* ---- Kbuild files ---- */

static char *substitute(Kernel *k, const char *dir, const char *s)
{
	const char *b = k->build ? k->build : k->src;
	StrBuf out = {0};
	while (*s) {
		if (s[0] == '$' && s[1] == '(') {
			const char *close = strchr(s, ')');
			if (!close)
				goto fail;
			size_t n = (size_t)(close - s - 2);
			const char *v = s + 2;
			if (n == 7 && !strncmp(v, "srctree", 7)) {
				if (!strncmp(close + 1, "/$(src)", 7)) {
					sb_addf(&out, "%s/%s", k->src, dir);
					s = close + 8;
					continue;
				}
				sb_adds(&out, k->src);
			} else if (n == 3 && !strncmp(v, "src", 3)) {
				sb_addf(&out, "%s/%s", k->src, dir);
			} else if (n == 3 && !strncmp(v, "obj", 3)) {
				sb_addf(&out, "%s/%s", b, dir);
			} else if (n == 7 && !strncmp(v, "objtree", 7)) {
				sb_adds(&out, b);
			} else {
				goto fail;
			}
			s = close + 1;
			continue;
		}
		sb_addc(&out, *s++);
	}
	if (!out.len)
		goto fail;
	if (out.buf[0] != '/') {
		/* relative -I in Kbuild is relative to the build root */
		char *abs = xasprintf("%s/%s", b, out.buf);
		free(out.buf);
		path_normalize(abs);
		return abs;
	}
	path_normalize(out.buf);
	return out.buf;
fail:
	free(out.buf);
	return NULL;
}

static void parse_kbuild_file(Kernel *k, DirFlags *df, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return;
	StrBuf logical = {0};
	char line[4096];
	while (fgets(line, sizeof(line), fp)) {
		size_t n = strcspn(line, "\n");
		line[n] = 0;
		bool cont = n && line[n - 1] == '\\';
		if (cont)
			line[n - 1] = ' ';
		sb_adds(&logical, line);
		if (cont)
			continue;
		const char *l = sb_str(&logical);
		while (*l == ' ' || *l == '\t')
			l++;
		bool subdir = !strncmp(l, "subdir-ccflags-", 15);
		bool own = !strncmp(l, "ccflags-", 8) || !strncmp(l, "EXTRA_CFLAGS", 12);
		char *stem = NULL;
		if (!strncmp(l, "CFLAGS_", 7)) {
			size_t n = strcspn(l + 7, " \t+:=");
			if (n > 2 && !strncmp(l + 7 + n - 2, ".o", 2))
				stem = xstrndup(l + 7, n - 2);
		}
		if ((subdir || own || stem) && strchr(l, '=')) {
			/* ccflags-y / ccflags-$(CONFIG_X): union mode takes every config */
			char *rhs = xstrdup(strchr(l, '=') + 1);
			StrVec *dst = subdir ? &df->subdir : stem ? &df->per_file : &df->own;
			char *save = NULL;
			bool want = false;
			for (char *tok = strtok_r(rhs, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
				const char *op = NULL;
				if (want)
					op = tok, want = false;
				else if (!strcmp(tok, "-I"))
					want = true;
				else if (!strncmp(tok, "-I", 2))
					op = tok + 2;
				if (op) {
					char *abs = substitute(k, df->dir, op);
					if (abs && stem)
						vec_push(dst, xstrdup(stem));
					if (abs)
						vec_push(dst, abs);
				}
			}
			free(rhs);
		}
		free(stem);
		logical.len = 0;
	}
	free(logical.buf);
	fclose(fp);
}

static void grow_dir_maps(Kernel *k, int key)
{
	if (key < k->cap_dir)
		return;
	int cap = k->cap_dir ? k->cap_dir : 4096;
	while (cap <= key)
		cap *= 2;
	k->ctx_of_dir = xrealloc(k->ctx_of_dir, (size_t)cap * sizeof(int));
	k->flags_of_dir = xrealloc(k->flags_of_dir, (size_t)cap * sizeof(int));
	memset(k->ctx_of_dir + k->cap_dir, 0, (size_t)(cap - k->cap_dir) * sizeof(int));
	memset(k->flags_of_dir + k->cap_dir, 0, (size_t)(cap - k->cap_dir) * sizeof(int));
	k->cap_dir = cap;
}

static DirFlags *dir_flags(Kernel *k, const char *dir)
{
	int key = intern_cstr(k->cfg->ft->keys, dir);
	grow_dir_maps(k, key);
	if (k->flags_of_dir[key])
		return &k->dirs.v[k->flags_of_dir[key] - 1];
	DirFlags df = {.dir = xstrdup(dir)};
	char *mk = xasprintf("%s/%s/Makefile", k->src, dir);
	char *kb = xasprintf("%s/%s/Kbuild", k->src, dir);
	parse_kbuild_file(k, &df, mk);
	parse_kbuild_file(k, &df, kb);
	free(mk);
	free(kb);
	df.parsed = true;
	vec_push(&k->dirs, df);
	k->flags_of_dir[key] = k->dirs.n;
	return &k->dirs.v[k->dirs.n - 1];
}

int kernel_ctx_for(Kernel *k, int key)
{
	FileTable *ft = k->cfg->ft;
	const char *path = fs_keystr(ft, key);
	const char *arch = k->default_arch;
	char archbuf[64];
	if (!strncmp(path, "arch/", 5)) {
		const char *slash = strchr(path + 5, '/');
		size_t n = slash ? (size_t)(slash - path - 5) : 0;
		if (n && n < sizeof(archbuf)) {
			memcpy(archbuf, path + 5, n);
			archbuf[n] = 0;
			arch = archbuf;
		}
	}
	char *dir = path_dirname(path);
	if (path[0] == '/') {
		free(dir);
		return arch_preset(k, arch)->ctx;
	}
	int dkey = fs_key(ft, dir);
	grow_dir_maps(k, dkey);
	/* CFLAGS_x.o -I ...: this file gets its own context */
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t stem_len = dot ? (size_t)(dot - base) : strlen(base);
	DirFlags *dfl = dir_flags(k, dir);
	StrVec file_dirs = {0};
	for (int i = 0; i + 1 < dfl->per_file.n; i += 2)
		if (strlen(dfl->per_file.v[i]) == stem_len && !strncmp(dfl->per_file.v[i], base, stem_len))
			vec_push(&file_dirs, dfl->per_file.v[i + 1]);
	if (!file_dirs.n && k->ctx_of_dir[dkey]) {
		free(dir);
		return k->ctx_of_dir[dkey] - 1;
	}
	ArchPreset *ap = arch_preset(k, arch);
	int ap_index = (int)(ap - k->arches.v);
	FlagSet extra = {0};
	/* per-directory additions: inherited subdir-ccflags, own ccflags, src, obj */
	StrBuf walk = {0};
	const char *p = dir;
	for (;;) {
		const char *slash = strchr(p, '/');
		walk.len = 0;
		sb_add(&walk, dir, slash ? (size_t)(slash - dir) : strlen(dir));
		DirFlags *df = dir_flags(k, walk.buf);
		for (int i = 0; i < df->subdir.n; i++)
			vec_push(&extra.I, xstrdup(df->subdir.v[i]));
		if (!slash)
			break;
		p = slash + 1;
	}
	free(walk.buf);
	DirFlags *own = dir_flags(k, dir);
	for (int i = 0; i < own->own.n; i++)
		vec_push(&extra.I, xstrdup(own->own.v[i]));
	for (int i = 0; i < file_dirs.n; i++)
		vec_push(&extra.I, xstrdup(file_dirs.v[i]));
	vec_push(&extra.I, xasprintf("%s/%s", k->src, dir));
	if (k->build)
		vec_push(&extra.I, xasprintf("%s/%s", k->build, dir));
	ap = &k->arches.v[ap_index];
	FlagSet full;
	flagset_copy(&full, &ap->flags);
	for (int i = 0; i < extra.I.n; i++)
		vec_push(&full.I, xstrdup(extra.I.v[i]));
	int ctx = config_ctx(k->cfg, &full, ap->chain);
	flagset_free(&full);
	flagset_free(&extra);
	grow_dir_maps(k, dkey);
	if (!file_dirs.n)
		k->ctx_of_dir[dkey] = ctx + 1;
	vec_free(&file_dirs);
	free(dir);
	return ctx;
}
