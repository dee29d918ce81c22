/*
 * config.c — flag sets, search chains, contexts and compile_commands.json.
 *
 * The search chain is built the way GCC documents it: -iquote dirs (for
 * "..." only), then -I, -isystem, the compiler's system dirs (unless
 * -nostdinc), then -idirafter; a directory named twice keeps its first
 * place, except that a -I naming a system directory is dropped in favour
 * of the system one.  The compiler is asked once for its own search list
 * (`cc -E -v`) and once per distinct set of target flags for its
 * predefined macros (`cc -dM -E`).
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"

static void sv_push(StrVec *v, const char *s)
{
	vec_push(v, xstrdup(s));
}

static void sv_free(StrVec *v)
{
	for (int i = 0; i < v->n; i++)
		free(v->v[i]);
	vec_free(v);
}

static void sv_copy(StrVec *dst, const StrVec *src)
{
	for (int i = 0; i < src->n; i++)
		sv_push(dst, src->v[i]);
}

void flagset_free(FlagSet *fs)
{
	sv_free(&fs->iquote);
	sv_free(&fs->I);
	sv_free(&fs->isystem);
	sv_free(&fs->idirafter);
	sv_free(&fs->include);
	sv_free(&fs->target);
	free(fs->defines.buf);
	free(fs->compiler);
	memset(fs, 0, sizeof(*fs));
}

void flagset_copy(FlagSet *dst, const FlagSet *src)
{
	memset(dst, 0, sizeof(*dst));
	sv_copy(&dst->iquote, &src->iquote);
	sv_copy(&dst->I, &src->I);
	sv_copy(&dst->isystem, &src->isystem);
	sv_copy(&dst->idirafter, &src->idirafter);
	sv_copy(&dst->include, &src->include);
	sv_copy(&dst->target, &src->target);
	if (src->defines.len)
		sb_add(&dst->defines, src->defines.buf, src->defines.len);
	dst->compiler = src->compiler ? xstrdup(src->compiler) : NULL;
	dst->nostdinc = src->nostdinc;
	dst->any_macro = src->any_macro;
}

static char *resolve_dir(const char *base_dir, const char *p)
{
	if (p[0] == '/' || !base_dir)
		return path_absolute(p);
	char *j = path_join(base_dir, p);
	char *abs = path_absolute(j);
	free(j);
	return abs;
}

/* -DNAME=VALUE -> "#define NAME VALUE"; -DNAME -> "#define NAME 1" */
static void add_define(FlagSet *fs, const char *def)
{
	const char *eq = strchr(def, '=');
	sb_adds(&fs->defines, "#define ");
	if (eq) {
		/* -D'F(x)=x' defines a function-like macro */
		sb_add(&fs->defines, def, (size_t)(eq - def));
		sb_addc(&fs->defines, ' ');
		for (const char *c = eq + 1; *c; c++)
			sb_addc(&fs->defines, *c == '\n' ? ' ' : *c);
	} else {
		sb_adds(&fs->defines, def);
		sb_adds(&fs->defines, " 1");
	}
	sb_addc(&fs->defines, '\n');
	fs->any_macro = true;
}

static bool target_flag(const char *a)
{
	/* flags that change which macros the compiler predefines */
	static const char *const prefixes[] = {
		"-m", "-std=", "-ansi", "-O", "-fPIC", "-fpic", "-fPIE", "-fpie", "-fno-PIE",
		"-fno-pic", "-fshort-wchar", "-funsigned-char", "-fsigned-char",
		"-fstack-protector", "-fno-stack-protector", "-fcf-protection", "-fsanitize=",
		"-ffreestanding", "-fno-builtin", "-fopenmp", "-pthread", "--target=", "-march=",
		"-fno-strict-overflow", "-fwrapv", "-fno-inline", "-ffast-math", "-fno-math-errno",
		"-fexceptions", "-fgnu89-inline", "-fno-common",
	};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(a, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

bool flagset_take(FlagSet *fs, int argc, char **argv, int *i, const char *base_dir)
{
	const char *a = argv[*i];
	static const struct {
		const char *flag;
		int which; /* 0 iquote 1 I 2 isystem 3 idirafter 4 include 5 D 6 U */
	} with_operand[] = {
		{"-iquote", 0}, {"-I", 1}, {"-isystem", 2}, {"-idirafter", 3},
		{"-include", 4}, {"-D", 5}, {"-U", 6},
	};
	if (!strcmp(a, "-nostdinc")) {
		fs->nostdinc = true;
		(*i)++;
		return true;
	}
	for (size_t k = 0; k < sizeof(with_operand) / sizeof(with_operand[0]); k++) {
		size_t n = strlen(with_operand[k].flag);
		if (strncmp(a, with_operand[k].flag, n) != 0)
			continue;
		const char *op;
		if (a[n]) {
			/* joined form is standard for -I -D -U; gcc accepts it for the rest */
			op = a + n;
		} else {
			if (*i + 1 >= argc)
				die("option '%s' needs an argument", a);
			op = argv[*i + 1];
			(*i)++;
		}
		(*i)++;
		switch (with_operand[k].which) {
		case 0: vec_push(&fs->iquote, resolve_dir(base_dir, op)); break;
		case 1: vec_push(&fs->I, resolve_dir(base_dir, op)); break;
		case 2: vec_push(&fs->isystem, resolve_dir(base_dir, op)); break;
		case 3: vec_push(&fs->idirafter, resolve_dir(base_dir, op)); break;
		case 4: vec_push(&fs->include, resolve_dir(base_dir, op)); break;
		case 5: add_define(fs, op); break;
		case 6:
			sb_addf(&fs->defines, "#undef %s\n", op);
			fs->any_macro = true;
			break;
		}
		return true;
	}
	if (target_flag(a)) {
		sv_push(&fs->target, a);
		(*i)++;
		return true;
	}
	return false;
}

void config_init(Config *cfg, FileTable *ft)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ft = ft;
	const char *cc = getenv("CC");
	cfg->cc = xstrdup(cc && *cc ? cc : "cc");
}

void config_free(Config *cfg)
{
	for (int i = 0; i < cfg->chains.n; i++) {
		free(cfg->chains.v[i].dirs);
		free(cfg->chains.v[i].sig);
	}
	for (int i = 0; i < cfg->ctxs.n; i++) {
		free(cfg->ctxs.v[i].forced);
		free(cfg->ctxs.v[i].prelude);
		free(cfg->ctxs.v[i].prelude_text);
		free(cfg->ctxs.v[i].sig);
	}
	vec_free(&cfg->chains);
	vec_free(&cfg->ctxs);
	vec_free(&cfg->units);
	free(cfg->cc);
}

/* ---- asking the compiler ---- */

static StrVec system_dirs;
static bool system_dirs_known;

const StrVec *config_system_dirs(Config *cfg)
{
	if (system_dirs_known)
		return &system_dirs;
	system_dirs_known = true;
	char *cmd = xasprintf("%s -E -v -x c /dev/null 2>&1 >/dev/null", cfg->cc);
	FILE *p = popen(cmd, "r");
	free(cmd);
	if (!p) {
		warn_at(cfg->cc, 0, "cannot ask the compiler for its include dirs");
		return &system_dirs;
	}
	char line[4096];
	bool in_list = false;
	while (fgets(line, sizeof(line), p)) {
		if (!strncmp(line, "#include <...> search starts here:", 34)) {
			in_list = true;
			continue;
		}
		if (!strncmp(line, "End of search list.", 19))
			in_list = false;
		if (in_list && line[0] == ' ') {
			char *s = line + 1;
			s[strcspn(s, "\n")] = 0;
			char *paren = strstr(s, " (framework directory)");
			if (paren)
				*paren = 0;
			char *abs = path_absolute(s);
			vec_push(&system_dirs, abs);
		}
	}
	pclose(p);
	return &system_dirs;
}

typedef struct {
	char *key;
	char *text;
} Predef;
static VEC(Predef) predefs;

static const char *predefined_macros(Config *cfg, const FlagSet *fs)
{
	StrBuf key = {0};
	sb_adds(&key, fs->compiler ? fs->compiler : cfg->cc);
	for (int i = 0; i < fs->target.n; i++) {
		sb_addc(&key, ' ');
		sb_adds(&key, fs->target.v[i]);
	}
	for (int i = 0; i < predefs.n; i++)
		if (!strcmp(predefs.v[i].key, key.buf)) {
			free(key.buf);
			return predefs.v[i].text;
		}
	StrBuf cmd = {0};
	sb_adds(&cmd, cfg->cc);
	for (int i = 0; i < fs->target.n; i++) {
		sb_adds(&cmd, " '");
		for (const char *c = fs->target.v[i]; *c; c++) {
			if (*c == '\'')
				sb_adds(&cmd, "'\\''");
			else
				sb_addc(&cmd, *c);
		}
		sb_addc(&cmd, '\'');
	}
	/* -nostdinc: only the compiler's own macros; <stdc-predef.h> is
	 * walked as the file it is */
	sb_adds(&cmd, " -nostdinc -dM -E -x c /dev/null 2>/dev/null");
	FILE *p = popen(cmd.buf, "r");
	StrBuf out = {0};
	if (p) {
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
			sb_add(&out, buf, n);
		if (pclose(p) != 0)
			warn_at(cfg->cc, 0, "'%s' failed; predefined macros may be missing", cmd.buf);
	}
	free(cmd.buf);
	Predef pd = {key.buf, xstrdup(sb_str(&out))};
	free(out.buf);
	vec_push(&predefs, pd);
	return pd.text;
}

void config_release_compiler_info(void)
{
	sv_free(&system_dirs);
	system_dirs_known = false;
	for (int i = 0; i < predefs.n; i++) {
		free(predefs.v[i].key);
		free(predefs.v[i].text);
	}
	vec_free(&predefs);
}

/* ---- chains and contexts ---- */

static void add_dir(Config *cfg, IntVec *dirs, const char *abs)
{
	int k = fs_key(cfg->ft, abs);
	for (int i = 0; i < dirs->n; i++)
		if (dirs->v[i] == k)
			return;
	vec_push(dirs, k);
}

static bool in_list(const StrVec *v, const char *s)
{
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

static int chain_for(Config *cfg, const FlagSet *fs, int base_chain)
{
	IntVec dirs = {0};
	int quote_end = 0, extra_at = 0;
	bool kernel_generic = cfg->kernel_generic;
	if (base_chain >= 0) {
		/* copy base up to its -I end, append ours, then the rest of base */
		Chain *b = &cfg->chains.v[base_chain];
		extra_at = b->extra_at;
		for (int i = 0; i < extra_at; i++)
			vec_push(&dirs, b->dirs[i]);
		quote_end = b->quote_end;
		for (int i = 0; i < fs->I.n; i++)
			add_dir(cfg, &dirs, fs->I.v[i]);
		int tail_from = extra_at;
		extra_at = dirs.n;
		for (int i = tail_from; i < b->ndirs; i++)
			vec_push(&dirs, b->dirs[i]);
	} else {
		StrVec sys = {0};
		if (!fs->nostdinc)
			sys = *config_system_dirs(cfg);
		for (int i = 0; i < fs->iquote.n; i++)
			add_dir(cfg, &dirs, fs->iquote.v[i]);
		quote_end = dirs.n;
		IntVec angle = {0};
		for (int i = 0; i < fs->I.n; i++)
			if (!in_list(&sys, fs->I.v[i]) && !in_list(&fs->isystem, fs->I.v[i]))
				add_dir(cfg, &angle, fs->I.v[i]);
		extra_at = quote_end + angle.n;
		for (int i = 0; i < fs->isystem.n; i++)
			add_dir(cfg, &angle, fs->isystem.v[i]);
		for (int i = 0; i < sys.n; i++)
			add_dir(cfg, &angle, sys.v[i]);
		for (int i = 0; i < fs->idirafter.n; i++)
			add_dir(cfg, &angle, fs->idirafter.v[i]);
		/* an -iquote dir that is also an angle dir keeps both places */
		for (int i = 0; i < angle.n; i++)
			vec_push(&dirs, angle.v[i]);
		vec_free(&angle);
	}
	StrBuf sig = {0};
	sb_addf(&sig, "%d:%d:%d:%d:", quote_end, extra_at, base_chain, kernel_generic);
	for (int i = 0; i < dirs.n; i++)
		sb_addf(&sig, "%d,", dirs.v[i]);
	uint64_t h = hash_bytes(sig.buf, sig.len);
	for (int i = 0; i < cfg->chains.n; i++)
		if (cfg->chains.v[i].sig_hash == h && !strcmp(cfg->chains.v[i].sig, sig.buf)) {
			free(sig.buf);
			vec_free(&dirs);
			return i;
		}
	Chain c = {.dirs = dirs.v, .ndirs = dirs.n, .quote_end = quote_end,
		   .base = base_chain, .extra_at = extra_at,
		   .kernel_generic = kernel_generic, .sig = sig.buf, .sig_hash = h};
	vec_push(&cfg->chains, c);
	return cfg->chains.n - 1;
}

int config_ctx(Config *cfg, const FlagSet *fs, int base_chain)
{
	int chain = chain_for(cfg, fs, base_chain);
	StrBuf prelude = {0};
	if (cfg->exact)
		sb_adds(&prelude, predefined_macros(cfg, fs));
	if (fs->defines.len)
		sb_add(&prelude, fs->defines.buf, fs->defines.len);
	StrBuf sig = {0};
	sb_addf(&sig, "%d %d\n", chain, !fs->nostdinc);
	for (int i = 0; i < fs->include.n; i++)
		sb_addf(&sig, "%s\n", fs->include.v[i]);
	sb_adds(&sig, sb_str(&prelude));
	uint64_t h = hash_bytes(sig.buf, sig.len);
	for (int i = 0; i < cfg->ctxs.n; i++)
		if (cfg->ctxs.v[i].sig_hash == h && !strcmp(cfg->ctxs.v[i].sig, sig.buf)) {
			free(sig.buf);
			free(prelude.buf);
			return i;
		}
	Ctx c = {.chain = chain, .sig = sig.buf, .sig_hash = h, .stdc_predef = !fs->nostdinc};
	c.forced = xmalloc(((size_t)fs->include.n + 1) * sizeof(int));
	for (int i = 0; i < fs->include.n; i++)
		c.forced[c.nforced++] = fs_key(cfg->ft, fs->include.v[i]);
	c.prelude_text = xstrdup(sb_str(&prelude));
	LexScratch s = {0};
	c.prelude = lex_file(c.prelude_text, strlen(c.prelude_text), &s);
	lex_scratch_free(&s);
	free(prelude.buf);
	vec_push(&cfg->ctxs, c);
	return cfg->ctxs.n - 1;
}

void config_show(Config *cfg, int ctx, StrBuf *out)
{
	Ctx *c = &cfg->ctxs.v[ctx];
	Chain *ch = &cfg->chains.v[c->chain];
	sb_addf(out, "/* mode: %s */\n", cfg->exact ? "exact" : "union");
	for (int i = 0; i < ch->ndirs; i++) {
		char *abs = fs_abspath(cfg->ft, ch->dirs[i]);
		sb_addf(out, "/* search %s: %s */\n", i < ch->quote_end ? "quote" : "angle", abs);
		free(abs);
	}
	if (ch->kernel_generic)
		sb_adds(out, "/* <asm/x.h> without an arch file: include/asm-generic/x.h */\n");
	for (int i = 0; i < c->nforced; i++) {
		char *abs = fs_abspath(cfg->ft, c->forced[i]);
		sb_addf(out, "/* -include %s */\n", abs);
		free(abs);
	}
	sb_adds(out, c->prelude_text);
}

bool config_read_flags_file(FlagSet *fs, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return false;
	char *dir = path_dirname(path);
	StrVec argv = {0};
	char line[4096];
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0])
			sv_push(&argv, line);
	}
	fclose(fp);
	for (int i = 0; i < argv.n;)
		if (!flagset_take(fs, argv.n, argv.v, &i, dir))
			i++;
	sv_free(&argv);
	free(dir);
	return true;
}

/* ---- compile_commands.json ---- */

/* Splits a shell command line the way a POSIX shell would (quotes and
 * backslashes; no expansions). */
static void shell_split(const char *s, StrVec *out)
{
	StrBuf cur = {0};
	bool have = false;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\n') {
			if (have) {
				vec_push(out, xstrdup(sb_str(&cur)));
				cur.len = 0;
				have = false;
			}
			continue;
		}
		have = true;
		if (c == '\\' && p[1]) {
			sb_addc(&cur, *++p);
		} else if (c == '\'') {
			while (*++p && *p != '\'')
				sb_addc(&cur, *p);
			if (!*p)
				break;
		} else if (c == '"') {
			while (*++p && *p != '"') {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$' || p[1] == '`'))
					p++;
				sb_addc(&cur, *p);
			}
			if (!*p)
				break;
		} else {
			sb_addc(&cur, c);
		}
	}
	if (have)
		vec_push(out, xstrdup(sb_str(&cur)));
	free(cur.buf);
}

/* Line of byte offset `off` in text, for messages. */
static int line_of(const char *text, size_t off)
{
	int line = 1;
	for (size_t i = 0; i < off && text[i]; i++)
		if (text[i] == '\n')
			line++;
	return line;
}

static char *read_whole(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		die("%s: cannot open: %s", path, strerror(errno));
	StrBuf sb = {0};
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sb_add(&sb, buf, n);
	bool err = ferror(fp);
	fclose(fp);
	if (err)
		die("%s: read error", path);
	*len = sb.len;
	return sb.buf ? sb.buf : xstrdup("");
}

void config_load_compdb(Config *cfg, const char *path, const FlagSet *extra)
{
	size_t len;
	char *text = read_whole(path, &len);
	if (memchr(text, 0, len))
		die("%s: not a JSON file (contains NUL bytes)", path);
	const char *err_at = NULL;
	cJSON *root = cJSON_ParseWithOpts(text, &err_at, 1);
	if (!root) {
		size_t off = err_at && err_at >= text ? (size_t)(err_at - text) : 0;
		die("%s:%d: malformed compile_commands.json (JSON syntax error)", path, line_of(text, off));
	}
	if (!cJSON_IsArray(root))
		die("%s:1: malformed compile_commands.json: the top level must be an array", path);
	char *compdb_dir = path_dirname(path);
	int idx = 0;
	cJSON *e;
	cJSON_ArrayForEach(e, root)
	{
		idx++;
		cJSON *dir = cJSON_GetObjectItemCaseSensitive(e, "directory");
		cJSON *file = cJSON_GetObjectItemCaseSensitive(e, "file");
		cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "arguments");
		cJSON *cmd = cJSON_GetObjectItemCaseSensitive(e, "command");
		if (!cJSON_IsString(dir) || !cJSON_IsString(file) ||
		    !(cJSON_IsArray(args) || cJSON_IsString(cmd)))
			die("%s: entry %d: malformed compile_commands.json: needs \"directory\", "
			    "\"file\" and \"arguments\" or \"command\"", path, idx);
		char *d = resolve_dir(compdb_dir, dir->valuestring);
		StrVec argv = {0};
		if (cJSON_IsArray(args)) {
			cJSON *a;
			cJSON_ArrayForEach(a, args)
			{
				if (!cJSON_IsString(a))
					die("%s: entry %d: malformed compile_commands.json: "
					    "\"arguments\" must hold strings", path, idx);
				sv_push(&argv, a->valuestring);
			}
		} else {
			shell_split(cmd->valuestring, &argv);
		}
		FlagSet fs = {0};
		if (argv.n)
			fs.compiler = xstrdup(argv.v[0]);
		for (int i = 1; i < argv.n;) {
			if (!flagset_take(&fs, argv.n, argv.v, &i, d))
				i++;
		}
		/* command-line flags of hdrslim come after the entry's own */
		for (int i = 0; extra && i < extra->I.n; i++)
			sv_push(&fs.I, extra->I.v[i]);
		if (extra && extra->defines.len)
			sb_add(&fs.defines, extra->defines.buf, extra->defines.len);
		int ctx = config_ctx(cfg, &fs, -1);
		char *fabs = resolve_dir(d, file->valuestring);
		int key = fs_key(cfg->ft, fabs);
		int fid = fs_add(cfg->ft, key, 0);
		Unit u = {fid, ctx};
		vec_push(&cfg->units, u);
		free(fabs);
		flagset_free(&fs);
		sv_free(&argv);
		free(d);
	}
	free(compdb_dir);
	cJSON_Delete(root);
	free(text);
}

bool strvec_has(const StrVec *v, const char *s)
{
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}
