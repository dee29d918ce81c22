/*
 * verify.c — compiling what a change touches, and never losing the work
 * tree while doing it.
 *
 * Four parts: finding each TU's command (compile_commands.json, a Kbuild
 * .cmd file, or the session's flags), running many compiles at once
 * (poll() over one pipe per child; a GNU make jobserver client when
 * MAKEFLAGS names one), finding the affected TUs, and the before-compile
 * of verify_run, which compiles the failures again in a mirror of the
 * work tree under $TMPDIR holding the revision's versions of the changed
 * files: the work tree itself is never written, so no signal can leave
 * it changed.  The mirror is removed with async-signal-safe calls, so
 * that SIGINT, SIGTERM, SIGHUP and exit() (die) all leave nothing behind
 * (SIGKILL leaves the mirror in $TMPDIR, and the work tree as it was).
 */
#include "verify.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "edit.h"
#include "git.h"
#include "intern.h"
#include "kernel.h"
#include "proc.h"
#include "progress.h"
#include "proofs.h"

/* ---- shell words ---- */

/* A word of a shell command line: its value after quote removal and the
 * span of its raw text, so that a Kbuild command can be rewritten without
 * touching the quoting of the words it keeps. */
typedef struct {
	char *value;
	size_t start, end;
} Word;
typedef VEC(Word) WordVec;

/* Splits like a POSIX shell without expansions: blanks separate words,
 * '...' is literal, "..." keeps \" \\ \$ \` escapes, a backslash quotes
 * the next character. */
static void shell_words(const char *s, WordVec *out)
{
	size_t i = 0, n = strlen(s);
	StrBuf cur = {0};
	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
			i++;
		if (i >= n)
			break;
		size_t start = i;
		cur.len = 0;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') {
			char c = s[i++];
			if (c == '\'') {
				while (i < n && s[i] != '\'')
					sb_addc(&cur, s[i++]);
				i += i < n;
			} else if (c == '"') {
				while (i < n && s[i] != '"') {
					if (s[i] == '\\' && i + 1 < n && strchr("\"\\$`\n", s[i + 1]))
						i++;
					sb_addc(&cur, s[i++]);
				}
				i += i < n;
			} else if (c == '\\' && i < n) {
				if (s[i] != '\n')
					sb_addc(&cur, s[i]);
				i++;
			} else {
				sb_addc(&cur, c);
			}
		}
		Word w = {xstrdup(sb_str(&cur)), start, i};
		vec_push(out, w);
	}
	free(cur.buf);
}

static void words_free(WordVec *w)
{
	for (int i = 0; i < w->n; i++)
		free(w->v[i].value);
	vec_free(w);
}

/* How many words starting at w a syntax check must drop: output and
 * dependency-file options (an -fsyntax-only run writes nothing). */
static int dropped_words(const char *w)
{
	static const char *const with_operand[] = {"-o", "-MF", "-MT", "-MQ", "-MJ"};
	static const char *const alone[] = {"-c", "-MD", "-MMD", "-MP", "-MG", "-M", "-MM"};
	for (size_t k = 0; k < sizeof(with_operand) / sizeof(with_operand[0]); k++) {
		size_t len = strlen(with_operand[k]);
		if (!strncmp(w, with_operand[k], len))
			return w[len] ? 1 : 2;
	}
	for (size_t k = 0; k < sizeof(alone) / sizeof(alone[0]); k++)
		if (!strcmp(w, alone[k]))
			return 1;
	if (!strncmp(w, "-Wp,-MD,", 8) || !strncmp(w, "-Wp,-MMD,", 9))
		return 1;
	return 0;
}

/* ---- commands ---- */

/* The word w of a command run in dir names the file abs. */
static bool names_file(const char *w, const char *dir, const char *abs)
{
	if (w[0] == '-')
		return false;
	char *p = w[0] == '/' ? xstrdup(w) : path_join(dir, w);
	path_normalize(p);
	bool hit = !strcmp(p, abs);
	free(p);
	return hit;
}

typedef struct Cmd {
	char **argv; /* NULL-terminated */
	char *cwd;
	char *error; /* no command could be made: why */
	struct Cmd *pre; /* the memo's preprocessing run (-E) before it, or NULL */
	uint64_t key;    /* the command's part of its proof key (proofs.h) */
} Cmd;

static void argv_push(StrVec *v, const char *s)
{
	vec_push(v, xstrdup(s));
}

static void wrapper_words(const VerifyOpts *o, StrVec *argv)
{
	if (!o->cc_wrapper || !*o->cc_wrapper)
		return;
	WordVec w = {0};
	shell_words(o->cc_wrapper, &w);
	for (int i = 0; i < w.n; i++)
		argv_push(argv, w.v[i].value);
	words_free(&w);
}

static void cmd_set_argv(Cmd *c, StrVec *argv)
{
	vec_push(argv, NULL);
	c->argv = argv->v;
}

/* A build-farm wrapper (distcc, icecc) sends only real compiles (-c)
 * to other machines and runs anything else, -fsyntax-only included,
 * locally: through one, verification compiles to an object thrown away. */
static bool farm_wrapper(const VerifyOpts *o)
{
	if (!o->cc_wrapper)
		return false;
	const char *w = o->cc_wrapper;
	while (*w == ' ' || *w == '\t')
		w++;
	size_t len = strcspn(w, " \t");
	const char *base = w;
	for (size_t i = 0; i < len; i++)
		if (w[i] == '/')
			base = w + i + 1;
	size_t blen = len - (size_t)(base - w);
	return (blen == 6 && !strncmp(base, "distcc", 6)) || (blen == 5 && !strncmp(base, "icecc", 5));
}

/* -fsyntax-only unless the caller wants another mode (-E); words
 * separated by blanks */
static const char *mode_flag(const VerifyOpts *o)
{
	if (o->mode && *o->mode)
		return o->mode;
	return farm_wrapper(o) ? "-c -o /dev/null" : "-fsyntax-only";
}

static void push_mode(StrVec *argv, const VerifyOpts *o)
{
	const char *m = mode_flag(o);
	while (*m) {
		size_t len = strcspn(m, " ");
		vec_push(argv, xstrndup(m, len));
		m += len;
		while (*m == ' ')
			m++;
	}
}

static void cmd_free(Cmd *c)
{
	for (int i = 0; c->argv && c->argv[i]; i++)
		free(c->argv[i]);
	free(c->argv);
	free(c->cwd);
	free(c->error);
	if (c->pre) {
		cmd_free(c->pre);
		free(c->pre);
	}
}

/* compile_commands.json, read again for the commands themselves (the
 * session kept only what decides the headers). */
typedef struct {
	char *file;  /* absolute, normalised */
	cJSON *entry;
	char *dir;   /* absolute */
} DbEntry;

typedef struct {
	cJSON *root;
	VEC(DbEntry) entries; /* sorted by file */
} Compdb;

static int by_file(const void *a, const void *b)
{
	return strcmp(((const DbEntry *)a)->file, ((const DbEntry *)b)->file);
}

static char *read_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	StrBuf sb = {0};
	char buf[65536];
	ssize_t r;
	while ((r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			free(sb.buf);
			return NULL;
		}
		sb_add(&sb, buf, (size_t)r);
	}
	close(fd);
	sb_str(&sb);
	if (len)
		*len = sb.len;
	return sb.buf;
}

static void compdb_load(Compdb *db, const char *path)
{
	memset(db, 0, sizeof(*db));
	char *text = read_all(path, NULL);
	if (!text)
		die("%s: cannot read: %s", path, strerror(errno));
	db->root = cJSON_Parse(text);
	free(text);
	if (!cJSON_IsArray(db->root))
		die("%s: not a JSON array of compile commands", path);
	char *db_dir = path_dirname(path);
	cJSON *e;
	cJSON_ArrayForEach(e, db->root) {
		cJSON *dir = cJSON_GetObjectItemCaseSensitive(e, "directory");
		cJSON *file = cJSON_GetObjectItemCaseSensitive(e, "file");
		if (!cJSON_IsString(file))
			continue;
		char *d = path_join(db_dir, cJSON_IsString(dir) ? dir->valuestring : ".");
		char *f = path_join(d, file->valuestring);
		DbEntry de = {f, e, d};
		vec_push(&db->entries, de);
	}
	free(db_dir);
	if (db->entries.n)
		qsort(db->entries.v, (size_t)db->entries.n, sizeof(DbEntry), by_file);
}

static void compdb_free(Compdb *db)
{
	for (int i = 0; i < db->entries.n; i++) {
		free(db->entries.v[i].file);
		free(db->entries.v[i].dir);
	}
	vec_free(&db->entries);
	cJSON_Delete(db->root);
}

/* The database as first read: the before-compile may have swapped an
 * older compile_commands.json in, or moved a new one aside, and the
 * commands must be the ones the user has now. */
static Compdb compdb_cache;
static char *compdb_cache_path;

static Compdb *compdb_get(const char *path)
{
	if (compdb_cache_path && !strcmp(compdb_cache_path, path))
		return &compdb_cache;
	if (compdb_cache_path) {
		compdb_free(&compdb_cache);
		free(compdb_cache_path);
	}
	compdb_load(&compdb_cache, path);
	compdb_cache_path = xstrdup(path);
	return &compdb_cache;
}

static void compdb_cmd(Compdb *db, const char *abs, const VerifyOpts *o, Cmd *c)
{
	/* the first entry for the file, as the session's units are */
	int lo = 0, hi = db->entries.n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (strcmp(db->entries.v[mid].file, abs) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= db->entries.n || strcmp(db->entries.v[lo].file, abs)) {
		c->error = xasprintf("no compile_commands.json entry for %s", abs);
		return;
	}
	DbEntry *de = &db->entries.v[lo];
	StrVec words = {0};
	cJSON *args = cJSON_GetObjectItemCaseSensitive(de->entry, "arguments");
	cJSON *command = cJSON_GetObjectItemCaseSensitive(de->entry, "command");
	if (cJSON_IsArray(args)) {
		cJSON *a;
		cJSON_ArrayForEach(a, args)
			if (cJSON_IsString(a))
				argv_push(&words, a->valuestring);
	} else if (cJSON_IsString(command)) {
		WordVec w = {0};
		shell_words(command->valuestring, &w);
		for (int i = 0; i < w.n; i++)
			argv_push(&words, w.v[i].value);
		words_free(&w);
	}
	if (!words.n) {
		c->error = xasprintf("the compile_commands.json entry for %s has no command", abs);
		vec_free(&words);
		return;
	}
	StrVec argv = {0};
	wrapper_words(o, &argv);
	argv_push(&argv, words.v[0]);
	push_mode(&argv, o);
	for (int i = 1; i < words.n;) {
		int drop = dropped_words(words.v[i]);
		if (drop) {
			i += drop;
			continue;
		}
		argv_push(&argv, o->source && names_file(words.v[i], de->dir, abs) ? o->source : words.v[i]);
		i++;
	}
	for (int i = 0; i < words.n; i++)
		free(words.v[i]);
	vec_free(&words);
	cmd_set_argv(c, &argv);
	c->cwd = xstrdup(de->dir);
}

/* Points a command at another work tree of the same sources: every
 * path that is `from` or under it (-I, -include, the source file,
 * -fmacro-prefix-map=) names `to` instead. */
static void repoint(StrBuf *sb, const char *from, const char *to)
{
	size_t n = strlen(from);
	StrBuf out = {0};
	const char *s = sb_str(sb);
	for (const char *p = s; *p;) {
		const char *hit = strstr(p, from);
		char after = hit ? hit[n] : 0;
		bool whole = hit && (after == '/' || after == 0 || after == ' ' || after == '\t' ||
				     after == '\'' || after == '"' || after == '=' || after == ':');
		if (!hit) {
			sb_adds(&out, p);
			break;
		}
		sb_add(&out, p, (size_t)(hit - p));
		sb_adds(&out, whole ? to : from);
		p = hit + n;
	}
	sb_str(&out);
	free(sb->buf);
	*sb = out;
}

static void kbuild_cmd(const char *build, const char *root, const char *abs, const VerifyOpts *o, Cmd *c)
{
	const char *rel = path_has_prefix(abs, root) && abs[strlen(root)] == '/' ? abs + strlen(root) + 1 : abs;
	if (path_has_prefix(abs, build) && abs[strlen(build)] == '/')
		rel = abs + strlen(build) + 1;
	char *cmdfile = kernel_cmd_file(build, rel);
	char *text = cmdfile ? read_all(cmdfile, NULL) : NULL;
	if (!text) {
		c->error = xasprintf("%s is not built in this configuration (no %s)", rel,
				     cmdfile ? cmdfile : "Kbuild .cmd file");
		free(cmdfile);
		return;
	}
	const char *line = NULL;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "savedcmd_", 9) || !strncmp(p, "cmd_", 4)) {
			line = p;
			break;
		}
	const char *assign = line ? strstr(line, " := ") : NULL;
	const char *eol = line ? strchr(line, '\n') : NULL;
	if (!assign || (eol && assign > eol)) {
		c->error = xasprintf("%s: no savedcmd_ line", cmdfile);
		free(cmdfile);
		free(text);
		return;
	}
	char *cmdline = eol ? xstrndup(assign + 4, (size_t)(eol - assign - 4)) : xstrdup(assign + 4);
	WordVec w = {0};
	shell_words(cmdline, &w);
	StrBuf sb = {0};
	if (o->cc_wrapper && *o->cc_wrapper) {
		sb_adds(&sb, o->cc_wrapper);
		sb_addc(&sb, ' ');
	}
	for (int i = 0; i < w.n;) {
		/* the compile ends at a command separator: what follows (a
		 * configuration without IBT runs objtool on each object:
		 * `; ./tools/objtool/objtool ... mm/mremap.o`) works on the
		 * object, which a check of the source does not make */
		const char *raw = cmdline + w.v[i].start;
		size_t rawlen = w.v[i].end - w.v[i].start;
		if ((rawlen == 1 && (*raw == ';' || *raw == '|' || *raw == '&')) ||
		    (rawlen == 2 && (!strncmp(raw, "&&", 2) || !strncmp(raw, "||", 2))))
			break;
		int drop = i ? dropped_words(w.v[i].value) : 0;
		if (drop) {
			i += drop;
			continue;
		}
		size_t wl = strlen(w.v[i].value), rl = strlen(rel);
		if (o->source && i && wl >= rl && !strcmp(w.v[i].value + wl - rl, rel) &&
		    (wl == rl || w.v[i].value[wl - rl - 1] == '/'))
			sb_addf(&sb, "'%s'", o->source); /* the TU lends its command */
		else
			sb_add(&sb, cmdline + w.v[i].start, w.v[i].end - w.v[i].start);
		sb_addc(&sb, ' ');
		i++;
	}
	sb_adds(&sb, mode_flag(o));
	/* The commands name the tree the build was made from (BUILD/source);
	 * verifying another work tree of it (a git worktree), they are
	 * pointed at that one. */
	char *made_from = NULL;
	if (!o->srctree) {
		char *link = path_join(build, "source");
		made_from = realpath(link, NULL);
		free(link);
	}
	const char *srctree = o->srctree ? o->srctree : made_from;
	if (srctree && strcmp(srctree, root))
		repoint(&sb, srctree, root);
	free(made_from);
	StrVec argv = {0};
	argv_push(&argv, "/bin/sh");
	argv_push(&argv, "-c");
	argv_push(&argv, sb_str(&sb));
	cmd_set_argv(c, &argv);
	c->cwd = xstrdup(build);
	free(sb.buf);
	words_free(&w);
	free(cmdline);
	free(cmdfile);
	free(text);
}

/* Points a command at the before-compile's mirror: every path under
 * from (as given, and as resolved) names the same path under to. */
static void cmd_redirect(Cmd *c, const char *from, const char *to)
{
	char *real = realpath(from, NULL);
	const char *froms[2] = {from, real && strcmp(real, from) ? real : NULL};
	for (int k = 0; k < 2 && froms[k]; k++) {
		for (int i = 0; c->argv && c->argv[i]; i++) {
			StrBuf sb = {0};
			sb_adds(&sb, c->argv[i]);
			repoint(&sb, froms[k], to);
			free(c->argv[i]);
			c->argv[i] = sb.buf;
		}
		if (c->cwd) {
			StrBuf sb = {0};
			sb_adds(&sb, c->cwd);
			repoint(&sb, froms[k], to);
			free(c->cwd);
			c->cwd = sb.buf;
		}
	}
	free(real);
}

/* The session's own flags: what -I/-D/... and compile_flags.txt gave. */
static void flags_cmd(Session *s, const char *tu, const VerifyOpts *o, Cmd *c)
{
	const FlagSet *fs = &s->opt->flags;
	StrVec argv = {0};
	wrapper_words(o, &argv);
	WordVec cc = {0};
	shell_words(fs->compiler ? fs->compiler : s->cfg.cc ? s->cfg.cc : "cc", &cc);
	for (int i = 0; i < cc.n; i++)
		argv_push(&argv, cc.v[i].value);
	if (!cc.n)
		argv_push(&argv, "cc");
	words_free(&cc);
	push_mode(&argv, o);
	if (fs->nostdinc)
		argv_push(&argv, "-nostdinc");
	for (int i = 0; i < fs->target.n; i++)
		argv_push(&argv, fs->target.v[i]);
	static const char *const flag[] = {"-iquote", "-I", "-isystem", "-idirafter", "-include"};
	const StrVec *dirs[] = {&fs->iquote, &fs->I, &fs->isystem, &fs->idirafter, &fs->include};
	/* The flags hold absolute paths; the ones inside the tree are given
	 * relative to it again, as the user wrote them, so that the compiler
	 * names files as the user's own build does. */
	size_t rootlen = strlen(s->ft.root);
	for (int k = 0; k < 5; k++)
		for (int i = 0; i < dirs[k]->n; i++) {
			const char *d = dirs[k]->v[i];
			argv_push(&argv, flag[k]);
			if (path_has_prefix(d, s->ft.root) && d[rootlen] == '/')
				argv_push(&argv, d + rootlen + 1);
			else if (!strcmp(d, s->ft.root))
				argv_push(&argv, ".");
			else
				argv_push(&argv, d);
		}
	/* the -D/-U were kept as #define/#undef lines, in order */
	const char *d = fs->defines.buf;
	for (size_t off = 0; d && off < fs->defines.len;) {
		const char *line = d + off;
		const char *nl = memchr(line, '\n', fs->defines.len - off);
		size_t len = nl ? (size_t)(nl - line) : fs->defines.len - off;
		off += len + 1;
		if (len > 7 && !strncmp(line, "#undef ", 7)) {
			char *u = xasprintf("-U%.*s", (int)(len - 7), line + 7);
			vec_push(&argv, u);
		} else if (len > 8 && !strncmp(line, "#define ", 8)) {
			const char *name = line + 8, *end = line + len, *p = name;
			/* a function-like name runs to its closing parenthesis */
			while (p < end && *p != ' ' && *p != '(')
				p++;
			if (p < end && *p == '(')
				while (p < end && *p++ != ')')
					;
			const char *val = p < end ? p + 1 : end;
			char *def = xasprintf("-D%.*s=%.*s", (int)(p - name), name, (int)(end - val), val);
			vec_push(&argv, def);
		}
	}
	argv_push(&argv, o->source ? o->source : tu);
	cmd_set_argv(c, &argv);
	c->cwd = xstrdup(s->ft.root);
}

static char *compdb_path(Session *s)
{
	if (s->opt->compdb)
		return path_absolute(s->opt->compdb);
	if (s->kernel)
		return NULL;
	char *auto_db = path_join(s->ft.root, "compile_commands.json");
	struct stat st;
	if (stat(auto_db, &st) == 0 && S_ISREG(st.st_mode))
		return auto_db;
	free(auto_db);
	return NULL;
}

static char *tu_abspath(Session *s, const char *tu)
{
	return path_join(s->ft.root, tu);
}

/* The Kbuild directory commands come from (absolute), NULL: none. */
static char *build_of(Session *s, const VerifyOpts *o)
{
	const char *b = o && o->build ? o->build : s->opt->build;
	return b ? path_absolute(b) : NULL;
}

/* ---- the make jobserver ---- */

/* GNU make hands out job slots as bytes in a pipe (make 4.3:
 * --jobserver-auth=R,W with inherited fds) or a named fifo (make 4.4:
 * --jobserver-auth=fifo:PATH).  Every process owns one implicit slot and
 * reads a byte before each further concurrent job, writing the same byte
 * back when the job ends. */
static struct {
	int rfd, wfd;
	bool active;
	char *held;            /* bytes taken, to give back */
	volatile int nheld;
} js = {-1, -1, false, NULL, 0};

static bool fd_is_pipe(int fd)
{
	struct stat st;
	return fd >= 0 && fcntl(fd, F_GETFD) >= 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

static void js_setup(bool quiet)
{
	static bool warned;
	js.active = false;
	const char *mf = getenv("MAKEFLAGS");
	if (!mf)
		return;
	const char *auth = NULL;
	for (const char *p = mf; (p = strstr(p, "--jobserver-")); p++)
		if (!strncmp(p, "--jobserver-auth=", 17))
			auth = p + 17;
		else if (!strncmp(p, "--jobserver-fds=", 16))
			auth = p + 16;
	if (!auth)
		return;
	size_t alen = strcspn(auth, " ");
	char *val = xstrndup(auth, alen);
	if (!strncmp(val, "fifo:", 5)) {
		js.rfd = open(val + 5, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		js.wfd = js.rfd;
		js.active = js.rfd >= 0;
	} else {
		int r = -1, w = -1;
		if (sscanf(val, "%d,%d", &r, &w) == 2 && fd_is_pipe(r) && fd_is_pipe(w)) {
			/* A descriptor of our own for the read side, so that making it
			 * non-blocking does not change make's. */
			char *proc = xasprintf("/proc/self/fd/%d", r);
			js.rfd = open(proc, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			free(proc);
			if (js.rfd < 0 && (js.rfd = fcntl(r, F_DUPFD_CLOEXEC, 3)) >= 0)
				fcntl(js.rfd, F_SETFL, fcntl(js.rfd, F_GETFL) | O_NONBLOCK);
			js.wfd = w;
			js.active = js.rfd >= 0;
		} else if (r >= 0 && !quiet && !warned) {
			warned = true;
			fprintf(stderr, "hdrslim: warning: jobserver unavailable (mark the make rule with '+'); "
				"using -j%d\n", cpu_count());
		}
	}
	free(val);
}

static bool js_acquire(void)
{
	char c;
	ssize_t r = read(js.rfd, &c, 1);
	if (r != 1)
		return false;
	js.held[js.nheld++] = c;
	return true;
}

/* Async-signal-safe. */
static void js_release(void)
{
	if (js.nheld <= 0)
		return;
	char c = js.held[--js.nheld];
	while (write(js.wfd, &c, 1) < 0 && errno == EINTR)
		;
}

static void js_release_all(void)
{
	while (js.active && js.nheld > 0)
		js_release();
}

static void js_close(void)
{
	js_release_all();
	if (js.active && js.rfd >= 0)
		close(js.rfd);
	js.rfd = js.wfd = -1;
	js.active = false;
	free(js.held);
	js.held = NULL;
}

/* ---- the before-compile's tree, and the signals ---- */

/* The revision's state is built beside the work tree, never in it: a
 * directory under $TMPDIR mirroring the git top, real directories holding
 * a symbolic link to every file of the work tree (tracked or not: an
 * in-tree generated config.h counts), except the changed files, which
 * hold the revision's bytes (or are absent, when the revision lacks
 * them).  Directories are real so that `..` in an include stays inside
 * the mirror.  The compilers read it through their own commands with the
 * top's path pointed at the mirror; nothing is ever written in the work
 * tree, so no signal, not even SIGKILL, can leave it changed.  What the
 * mirror is made of is recorded in order, so that a signal handler can
 * remove it with unlink() and rmdir() alone. */
static struct {
	char *root;       /* $TMPDIR/hdrslim-verify-XXXXXX */
	char *tree;       /* root/NAME: the top's mirror */
	char **made;      /* every path made under root, in order */
	int nmade, capmade;
	volatile sig_atomic_t active;
} bt;

static struct {
	volatile sig_atomic_t interrupted; /* the signal that stopped the run, 0: none */
	pid_t *pids;      /* running compiles (process group leaders), 0: free */
	int npids;
	int handlers;     /* nesting of handler installs */
	struct sigaction old[3];
	bool atexit_done;
} g;

static const int caught[3] = {SIGINT, SIGTERM, SIGHUP};

/* Removes the mirror.  Async-signal-safe: it runs from the signal
 * handler and from exit(). */
static void bt_remove_raw(void)
{
	if (!bt.active)
		return;
	bt.active = 0;
	for (int i = bt.nmade - 1; i >= 0; i--)
		if (unlink(bt.made[i]) < 0)
			rmdir(bt.made[i]);
	rmdir(bt.root);
}

static void bt_made(const char *path)
{
	if (bt.nmade == bt.capmade) {
		bt.capmade = bt.capmade ? 2 * bt.capmade : 1024;
		bt.made = xrealloc(bt.made, (size_t)bt.capmade * sizeof(char *));
	}
	bt.made[bt.nmade++] = xstrdup(path);
}

/* Mirrors dir (absolute) at to: real directories, links to the files. */
static void bt_mirror(const char *dir, const char *to, bool top)
{
	DIR *d = opendir(dir);
	if (!d)
		die("verify: cannot read %s: %s", dir, strerror(errno));
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, "..") || (top && !strcmp(n, ".git")))
			continue;
		char *from = path_join(dir, n), *at = path_join(to, n);
		struct stat st;
		if (lstat(from, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (mkdir(at, 0755) < 0)
				die("verify: cannot make %s: %s", at, strerror(errno));
			bt_made(at);
			bt_mirror(from, at, false);
		} else {
			if (symlink(from, at) < 0)
				die("verify: cannot make %s: %s", at, strerror(errno));
			bt_made(at);
		}
		free(from);
		free(at);
	}
	closedir(d);
}

static void bt_mkdirs_for(const char *path)
{
	char *p = xstrdup(path);
	for (char *slash = strchr(p + strlen(bt.tree), '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		if (mkdir(p, 0755) == 0)
			bt_made(p);
		*slash = '/';
	}
	free(p);
}

/* Stops the compiles, gives make its tokens back and removes the
 * before-compile's mirror; then the signal does what it did before
 * verify: a caller's handler (`series` stops at the last good commit)
 * runs and the run returns early, else the process dies of it. */
static void on_signal(int sig, siginfo_t *info, void *ctx)
{
	g.interrupted = sig;
	for (int i = 0; i < g.npids; i++)
		if (g.pids[i] > 0)
			kill(-g.pids[i], SIGTERM);
	js_release_all();
	bt_remove_raw();
	for (int k = 0; k < 3; k++) {
		const struct sigaction *old = &g.old[k];
		if (caught[k] != sig)
			continue;
		if (old->sa_flags & SA_SIGINFO) {
			old->sa_sigaction(sig, info, ctx);
			return;
		}
		/* SIG_IGN too: verify was asked to stop (a background job
		 * starts with SIGINT ignored, `kill -INT` still means stop) */
		if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
			old->sa_handler(sig);
			return;
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_exit_cleanup(void)
{
	js_release_all();
	bt_remove_raw();
}

static void handlers_push(void)
{
	if (!g.atexit_done) {
		atexit(on_exit_cleanup);
		g.atexit_done = true;
	}
	if (g.handlers++)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (int k = 0; k < 3; k++)
		sigaddset(&sa.sa_mask, caught[k]);
	for (int k = 0; k < 3; k++)
		sigaction(caught[k], &sa, &g.old[k]);
}

static void handlers_pop(void)
{
	if (--g.handlers)
		return;
	for (int k = 0; k < 3; k++)
		sigaction(caught[k], &g.old[k], NULL);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (int k = 0; k < 3; k++)
		sigaddset(&set, caught[k]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* ---- running the compiles ---- */

typedef struct {
	pid_t pid;
	int fd;
	int idx;
	StrBuf out;
	double start;
	bool timed_out;
	PpHash *ph;      /* preprocessing for the memo: its output is hashed, not kept */
	uint64_t proof;  /* the compile that runs now passes: this key is proven */
} Job;

/* Runs c with its stdout (and stderr, unless null_stderr: preprocessed
 * output must be the compiler's alone) on a pipe returned in *fd_out. */
static pid_t spawn(const Cmd *c, int *fd_out, bool null_stderr)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		/* its own process group: a timeout or an interrupt stops the
		 * wrapper and the compiler it runs alike */
		setpgid(0, 0);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		for (int k = 0; k < 3; k++)
			signal(caught[k], SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(p[1], 1);
		if (null_stderr && null >= 0) {
			int wnull = open("/dev/null", O_WRONLY);
			dup2(wnull >= 0 ? wnull : p[1], 2);
		} else {
			dup2(p[1], 2);
		}
		if (c->cwd && chdir(c->cwd)) {
			dprintf(2, "hdrslim: cannot enter %s: %s\n", c->cwd, strerror(errno));
			_exit(127);
		}
		execvp(c->argv[0], c->argv);
		dprintf(2, "hdrslim: cannot run %s: %s\n", c->argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* also here: no race with a kill before the child ran */
	close(p[1]);
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	*fd_out = p[0];
	return pid;
}

static void drain(Job *j)
{
	char buf[65536];
	for (;;) {
		ssize_t r = read(j->fd, buf, sizeof(buf));
		if (r > 0) {
			if (j->ph) {
				pphash_feed(j->ph, buf, (size_t)r);
				continue;
			}
			/* the first screenful is all anyone reads */
			if (j->out.len < (1u << 20))
				sb_add(&j->out, buf, (size_t)r);
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			close(j->fd);
			j->fd = -1;
		}
		return;
	}
}

static int status_of(int st)
{
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static void finish(Job *j, int st, const VerifyOpts *o, VerifyTuVec *out)
{
	VerifyTu *t = &out->v[j->idx];
	t->seconds = now_seconds() - j->start;
	t->after = j->timed_out ? 124 : status_of(st);
	if (t->after) {
		if (j->timed_out)
			t->first_error = xasprintf("timed out after %d s", o->timeout);
		else {
			t->first_error = proc_first_error(sb_str(&j->out));
			if (!*t->first_error) {
				free(t->first_error);
				t->first_error = xasprintf("exit status %d", t->after);
			}
		}
	}
	free(j->out.buf);
	memset(&j->out, 0, sizeof(j->out));
}

/* Runs the commands, at most `max` at once, in o->order when given;
 * out->v[i] gets command i's result.  A command with a preprocessing run
 * (the memo) runs that first in the same slot: when its output's key is
 * among the proofs the TU passes without its compile, else the compile
 * runs and a pass is kept as a proof.  With o->fail_fast nothing starts
 * after the first failure: what was not started is marked skipped. */
static void run_all(Cmd *cmds, int n, const VerifyOpts *o, VerifyTuVec *out, Proofs *proofs)
{
	js_setup(o->quiet);
	/* under make, make decides how many: as many as it grants */
	int max = o->jobs > 0 ? o->jobs : js.active ? 256 : cpu_count();
	if (max > n)
		max = n;
	if (max < 1)
		max = 1;
	if (js.active)
		js.held = xcalloc((size_t)max + 1, 1);
	Job *jobs = xcalloc((size_t)max, sizeof(Job));
	g.pids = xcalloc((size_t)max, sizeof(pid_t));
	g.npids = max;
	handlers_push();
	if (!o->quiet)
		fprintf(stderr, "verify: compiling %d TU%s, %s%d at a time\n", n, n == 1 ? "" : "s",
			js.active ? "with make's jobserver, up to " : "", max);
	Progress *pr = progress_begin(NULL, o->progress ? o->progress : "TUs", n);
	int next = 0, running = 0;
	bool stop = false;
#define AT(k) (o->order ? o->order[k] : (k))
	/* commands that could not be made fail at once */
	while (next < n || running) {
		bool want_token = false;
		/* interrupted: what has not started is not compiled */
		while (g.interrupted && next < n) {
			out->v[AT(next)].after = 128 + g.interrupted;
			out->v[AT(next)].first_error = xstrdup("interrupted");
			next++;
			progress_add(pr, 1);
		}
		/* a failure with fail_fast: the rest waits for the verdict */
		while (stop && next < n) {
			out->v[AT(next)].skipped = true;
			next++;
			progress_add(pr, 1);
		}
		while (next < n && running < max) {
			Cmd *c = &cmds[AT(next)];
			if (c->error) {
				out->v[AT(next)].after = 127;
				out->v[AT(next)].first_error = xstrdup(c->error);
				next++;
				progress_add(pr, 1);
				if (o->fail_fast) {
					stop = true;
					break;
				}
				continue;
			}
			if (js.active && running > 0 && !js_acquire()) {
				want_token = true;
				break;
			}
			int slot = 0;
			while (jobs[slot].pid)
				slot++;
			Job *j = &jobs[slot];
			memset(j, 0, sizeof(*j));
			j->idx = AT(next);
			next++;
			j->start = now_seconds();
			if (c->pre && proofs) {
				j->ph = pphash_new(c->key);
				j->pid = spawn(c->pre, &j->fd, true);
			} else {
				j->pid = spawn(c, &j->fd, false);
			}
			g.pids[slot] = j->pid;
			running++;
		}
#undef AT
		if (!running && next >= n)
			break;
		struct pollfd pf[max + 1];
		int slot_of[max + 1], np = 0;
		double now = now_seconds();
		/* The tick also catches a child whose pipe a daemon it started
		 * keeps open; a child whose pipe is closed is about to exit. */
		int wait_ms = 200;
		for (int i = 0; i < max; i++) {
			if (!jobs[i].pid)
				continue;
			if (jobs[i].fd >= 0) {
				pf[np] = (struct pollfd){.fd = jobs[i].fd, .events = POLLIN};
				slot_of[np++] = i;
			} else {
				wait_ms = 2;
			}
			if (o->timeout > 0 && !jobs[i].timed_out) {
				double left = jobs[i].start + o->timeout - now;
				int ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
				if (ms < wait_ms)
					wait_ms = ms;
			}
		}
		if (want_token) {
			pf[np] = (struct pollfd){.fd = js.rfd, .events = POLLIN};
			slot_of[np++] = -1;
		}
		if (poll(pf, (nfds_t)np, wait_ms) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		progress_tick();
		for (int k = 0; k < np; k++)
			if (slot_of[k] >= 0 && pf[k].revents)
				drain(&jobs[slot_of[k]]);
		now = now_seconds();
		for (int i = 0; i < max; i++) {
			Job *j = &jobs[i];
			if (!j->pid)
				continue;
			if (o->timeout > 0 && !j->timed_out && now - j->start >= o->timeout) {
				kill(-j->pid, SIGKILL);
				j->timed_out = true;
			}
			int st;
			pid_t r = waitpid(j->pid, &st, WNOHANG);
			if (r == 0 || (r < 0 && errno == EINTR))
				continue;
			if (r < 0)
				die("waitpid: %s", strerror(errno));
			if (j->fd >= 0) {
				drain(j);
				if (j->fd >= 0)
					close(j->fd);
			}
			if (j->ph) {
				/* the preprocessing ended: proven, or now the compile */
				uint64_t key = pphash_end(j->ph);
				j->ph = NULL;
				bool ok = !j->timed_out && status_of(st) == 0;
				if (ok && proofs_has(proofs, key)) {
					out->v[j->idx].proven = true;
					out->v[j->idx].seconds = now_seconds() - j->start;
				} else if (!j->timed_out && !g.interrupted) {
					j->proof = ok ? key : 0;
					j->start = now_seconds();
					j->pid = spawn(&cmds[j->idx], &j->fd, false);
					g.pids[i] = j->pid;
					continue;
				} else {
					finish(j, st, o, out);
				}
			} else {
				finish(j, st, o, out);
				if (!out->v[j->idx].after && j->proof)
					proofs_add(proofs, j->proof);
			}
			if (out->v[j->idx].after && o->fail_fast)
				stop = true;
			j->pid = 0;
			g.pids[i] = 0;
			running--;
			/* one job runs on our own slot; every other holds a token */
			if (js.active && js.nheld > (running > 0 ? running - 1 : 0))
				js_release();
			progress_add(pr, 1);
		}
	}
	progress_end(pr);
	handlers_pop();
	free(g.pids);
	g.pids = NULL;
	g.npids = 0;
	free(jobs);
	js_close();
}

void verify_compile(Session *s, const StrVec *tus, const VerifyOpts *o, VerifyTuVec *out)
{
	if (!g.handlers)
		g.interrupted = 0;
	/* a wrapper named by a relative path (--cc-wrapper ./mycc) means the
	 * one here, wherever the command runs (the before-compile's mirror) */
	VerifyOpts local;
	char *wrapper_abs = NULL;
	if (o->cc_wrapper && o->cc_wrapper[0] != '/') {
		size_t first = strcspn(o->cc_wrapper, " \t");
		if (memchr(o->cc_wrapper, '/', first)) {
			char *word = xstrndup(o->cc_wrapper, first);
			char *abs = path_absolute(word);
			wrapper_abs = xasprintf("%s%s", abs, o->cc_wrapper + first);
			free(abs);
			free(word);
			local = *o;
			local.cc_wrapper = wrapper_abs;
			o = &local;
		}
	}
	verify_tus_free(out);
	int n = tus->n;
	Cmd *cmds = xcalloc((size_t)n + 1, sizeof(Cmd));
	char *db_path = compdb_path(s);
	Compdb *db = db_path ? compdb_get(db_path) : NULL;
	char *build = !db_path ? build_of(s, o) : NULL;
	if (!db_path && !build && s->kernel)
		die("verify: a kernel tree needs its build directory (--build DIR, the make O=DIR) "
		    "for the compile commands");
	VerifyOpts pre = *o;
	pre.mode = "-E";
	for (int i = 0; i < n; i++) {
		VerifyTu t = {.tu = xstrdup(tus->v[i]), .before = -1};
		vec_push(out, t);
		char *abs = tu_abspath(s, tus->v[i]);
		for (int k = 0; k < (o->memo ? 2 : 1); k++) {
			Cmd *c = &cmds[i];
			if (k) {
				if (c->error)
					break;
				c->pre = xcalloc(1, sizeof(Cmd));
				c = c->pre;
			}
			const VerifyOpts *ok = k ? &pre : o;
			if (db_path)
				compdb_cmd(db, abs, ok, c);
			else if (build)
				kbuild_cmd(build, s->ft.root, abs, ok, c);
			else
				flags_cmd(s, tus->v[i], ok, c);
		}
		if (cmds[i].pre && cmds[i].pre->error) {
			cmd_free(cmds[i].pre);
			free(cmds[i].pre);
			cmds[i].pre = NULL;
		}
		free(abs);
	}
	if (o->redirect_to)
		for (int i = 0; i < n; i++) {
			cmd_redirect(&cmds[i], o->redirect_from, o->redirect_to);
			if (cmds[i].pre)
				cmd_redirect(cmds[i].pre, o->redirect_from, o->redirect_to);
		}
	for (int i = 0; i < n; i++)
		if (cmds[i].pre)
			cmds[i].key = proofs_command_key(cmds[i].argv, cmds[i].cwd);
	Proofs *proofs = o->memo ? proofs_open(s->ft.root) : NULL;
	if (n)
		run_all(cmds, n, o, out, proofs);
	proofs_close(proofs);
	for (int i = 0; i < n; i++)
		cmd_free(&cmds[i]);
	free(cmds);
	free(db_path);
	free(build);
	free(wrapper_abs);
}

void verify_tus_free(VerifyTuVec *v)
{
	for (int i = 0; i < v->n; i++) {
		free(v->v[i].tu);
		free(v->v[i].first_error);
	}
	vec_free(v);
}

char **verify_command(Session *s, const char *tu, const VerifyOpts *o, char **cwd, char **error)
{
	/* the same choice of source as verify_compile */
	Cmd c = {0};
	char *db_path = compdb_path(s);
	char *build = !db_path ? build_of(s, o) : NULL;
	char *abs = tu_abspath(s, tu);
	if (db_path)
		compdb_cmd(compdb_get(db_path), abs, o, &c);
	else if (build)
		kbuild_cmd(build, s->ft.root, abs, o, &c);
	else if (s->kernel)
		c.error = xstrdup("a kernel tree needs its build directory (--build DIR) for the compile commands");
	else
		flags_cmd(s, tu, o, &c);
	free(abs);
	free(db_path);
	free(build);
	*cwd = c.cwd;
	*error = c.error;
	return c.argv;
}

void verify_command_free(char **argv)
{
	for (int i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* ---- which TUs a change affects ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool in_sorted(const StrVec *v, const char *s)
{
	return v->n && bsearch(&s, v->v, (size_t)v->n, sizeof(char *), cmp_str);
}

typedef struct {
	const char *root, *build;
	const char *srcroot;   /* the tree the build was made from (BUILD/source),
				* when it is not root: the .cmd files name its
				* paths, which stand for root's (a git worktree) */
	const StrVec *changed; /* absolute, sorted */
	StrVec *tus;
} KbuildScan;

/* A path the .cmd file names, as a path of the tree being verified. */
static char *kbuild_path(const KbuildScan *k, char *abs)
{
	if (k->srcroot && path_has_prefix(abs, k->srcroot) && abs[strlen(k->srcroot)] == '/') {
		char *mapped = xasprintf("%s%s", k->root, abs + strlen(k->srcroot));
		free(abs);
		return mapped;
	}
	return abs;
}

/* One .o.cmd file: does the object's source or a dependency fixdep
 * listed name a changed file? */
static void kbuild_scan_file(KbuildScan *k, const char *cmdfile)
{
	char *text = read_all(cmdfile, NULL);
	if (!text)
		return;
	char *source = NULL;
	bool hit = false, in_deps = false;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (!strncmp(line, "source_", 7)) {
			char *v = strstr(line, " := ");
			if (v) {
				free(source);
				source = xstrdup(v + 4);
				char *e = source + strlen(source);
				while (e > source && e[-1] == ' ')
					*--e = 0;
			}
		} else if (!strncmp(line, "deps_", 5)) {
			in_deps = true;
		} else if (in_deps) {
			char *p = line;
			while (*p == ' ' || *p == '\t')
				p++;
			char *e = p + strlen(p);
			bool more = e > p && e[-1] == '\\';
			if (more)
				e--;
			while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			*e = 0;
			if (*p && strncmp(p, "$(", 2)) {
				char *abs = kbuild_path(k, path_join(k->build, p));
				if (in_sorted(k->changed, abs))
					hit = true;
				free(abs);
			}
			if (!more)
				in_deps = false;
		}
		line = nl ? nl + 1 : NULL;
	}
	/* C sources of the tree only: host programs and objtool have
	 * relative sources and commands run elsewhere */
	if (source && source[0] == '/' && ends_with(source, ".c")) {
		char *abs = xstrdup(source);
		path_normalize(abs);
		abs = kbuild_path(k, abs);
		if (in_sorted(k->changed, abs))
			hit = true;
		if (hit && path_has_prefix(abs, k->root))
			vec_push(k->tus, xstrdup(abs + strlen(k->root) + 1));
		free(abs);
	}
	free(source);
	free(text);
}

static void kbuild_scan_dir(KbuildScan *k, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	StrVec subdirs = {0};
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *nm = e->d_name;
		if (!strcmp(nm, ".") || !strcmp(nm, ".."))
			continue;
		char *p = xasprintf("%s/%s", dir, nm);
		unsigned char type = e->d_type;
		if (type == DT_UNKNOWN) {
			struct stat st;
			type = lstat(p, &st) < 0 ? DT_UNKNOWN : S_ISDIR(st.st_mode) ? DT_DIR :
				S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		/* symlinks (BUILD/source -> the tree) are not followed */
		if (type == DT_DIR) {
			vec_push(&subdirs, p);
			continue;
		}
		if (type == DT_REG && nm[0] == '.' && ends_with(nm, ".o.cmd"))
			kbuild_scan_file(k, p);
		free(p);
	}
	closedir(d);
	for (int i = 0; i < subdirs.n; i++) {
		kbuild_scan_dir(k, subdirs.v[i]);
		free(subdirs.v[i]);
	}
	vec_free(&subdirs);
}

void verify_affected(Session *s, const StrVec *changed, StrVec *tus)
{
	verify_affected_in(s, NULL, changed, tus);
}

void verify_affected_in(Session *s, const char *build_dir, const StrVec *changed, StrVec *tus)
{
	StrVec abs = {0};
	for (int i = 0; i < changed->n; i++)
		vec_push(&abs, path_join(s->ft.root, changed->v[i]));
	if (abs.n)
		qsort(abs.v, (size_t)abs.n, sizeof(char *), cmp_str);
	char *db = compdb_path(s);
	VerifyOpts bo = {.build = build_dir};
	char *build = !db ? build_of(s, &bo) : NULL;
	if (build) {
		char *link = path_join(build, "source");
		char *src = realpath(link, NULL);
		char *root = realpath(s->ft.root, NULL);
		bool other = src && root && strcmp(src, root);
		KbuildScan k = {s->ft.root, build, other ? src : NULL, &abs, tus};
		kbuild_scan_dir(&k, build);
		free(root);
		free(src);
		free(link);
	} else {
		/* the closures, as the session computes them after the change */
		session_all_units(s);
		session_prepare(s, s->cfg.units.v, s->cfg.units.n);
		uint8_t *hit = xcalloc((size_t)s->ft.nfiles + 1, 1);
		bool deleted = false;
		for (int i = 0; i < abs.n; i++) {
			int id = fs_probe(&s->ft, fs_key(&s->ft, abs.v[i]));
			if (id >= 0 && id < s->ft.nfiles)
				hit[id] = 1;
			else
				deleted = true;
		}
		TuGraph tg;
		memset(&tg, 0, sizeof(tg));
		int nfiles = s->ft.nfiles;
		for (int u = 0; u < s->cfg.units.n; u++) {
			const Unit *un = &s->cfg.units.v[u];
			bool affected = un->file < nfiles && hit[un->file];
			if (!affected) {
				session_tu(s, un, &tg);
				for (int i = 0; i < tg.nodes.n && !affected; i++)
					affected = tg.nodes.v[i] < nfiles && hit[tg.nodes.v[i]];
				/* a deleted header leaves only a missing include behind */
				affected = affected || (deleted && tg.missing.n);
			}
			if (affected)
				vec_push(tus, xstrdup(session_path(s, un->file)));
		}
		tu_free(&tg);
		free(hit);
	}
	/* sorted, each once: a compile_commands.json may list a file twice,
	 * two objects may share a source */
	if (tus->n)
		qsort(tus->v, (size_t)tus->n, sizeof(char *), cmp_str);
	int kept = 0;
	for (int i = 0; i < tus->n; i++) {
		if (kept && !strcmp(tus->v[kept - 1], tus->v[i]))
			free(tus->v[i]);
		else
			tus->v[kept++] = tus->v[i];
	}
	tus->n = kept;
	free(build);
	free(db);
	for (int i = 0; i < abs.n; i++)
		free(abs.v[i]);
	vec_free(&abs);
}

/* ---- verify_run: after, then before for what fails ---- */

static void bt_write(const char *path, const char *bytes, size_t len)
{
	char *err = NULL;
	if (!write_file_atomic(path, bytes, len, 0644, &err))
		die("verify: %s", err);
	bt_made(path);
}

/* The mirror of top with rev's versions of the changed files; returns
 * its path (bt.tree).  Signals wait while it is being made, so that the
 * handler always sees a complete record of what to remove. */
static const char *bt_make(const char *top, const char *rev, const StrVec *changed)
{
	const char *tmpdir = getenv("TMPDIR");
	sigset_t old;
	block_signals(&old);
	bt.root = xasprintf("%s/hdrslim-verify-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(bt.root))
		die("verify: cannot create a directory for the revision's files (%s): %s", bt.root,
		    strerror(errno));
	const char *base = strrchr(top, '/');
	bt.tree = path_join(bt.root, base && base[1] ? base + 1 : "tree");
	bt.active = 1;
	if (mkdir(bt.tree, 0755) < 0)
		die("verify: cannot make %s: %s", bt.tree, strerror(errno));
	bt_made(bt.tree);
	bt_mirror(top, bt.tree, true);
	for (int i = 0; i < changed->n; i++) {
		char *at = path_join(bt.tree, changed->v[i]);
		if (unlink(at) < 0 && errno != ENOENT)
			die("verify: cannot replace %s: %s", at, strerror(errno));
		StrBuf bytes = {0};
		if (git_show(top, rev, changed->v[i], &bytes)) {
			bt_mkdirs_for(at);
			bt_write(at, bytes.buf ? bytes.buf : "", bytes.len);
		}
		free(bytes.buf);
		free(at);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return bt.tree;
}

static void bt_free(void)
{
	sigset_t old;
	block_signals(&old);
	bt_remove_raw();
	for (int i = 0; i < bt.nmade; i++)
		free(bt.made[i]);
	free(bt.made);
	bt.made = NULL;
	bt.nmade = bt.capmade = 0;
	free(bt.root);
	free(bt.tree);
	bt.root = bt.tree = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The TU's path relative to the git top, to look it up among the
 * changed files. */
static char *rel_to_top(Session *s, const char *top, const char *tu)
{
	char *abs = tu_abspath(s, tu);
	char *rel = path_has_prefix(abs, top) && abs[strlen(top)] == '/' ? xstrdup(abs + strlen(top) + 1) : NULL;
	free(abs);
	return rel;
}

/* ---- which TUs are likeliest to fail ---- */

static bool ident_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* The next identifier of text at or after *p (a number's letters are
 * not one): its start, with *len; NULL at the end. */
static const char *next_identifier(const char **p, size_t *len)
{
	for (const char *s = *p; s && *s;) {
		if (ident_char(*s) && !(*s >= '0' && *s <= '9')) {
			const char *b = s;
			while (ident_char(*s))
				s++;
			*len = (size_t)(s - b);
			*p = s;
			return b;
		}
		if (*s >= '0' && *s <= '9')
			while (ident_char(*s) || *s == '.')
				s++;
		else
			s++;
	}
	return NULL;
}

/* Counts identifiers of text into counts (by interned id), with sign. */
static void count_identifiers(Interner *in, IntVec *counts, const char *text, int sign)
{
	size_t len;
	for (const char *p = text, *b; (b = next_identifier(&p, &len));) {
		int id = intern(in, b, len);
		while (counts->n <= id)
			vec_push(counts, 0);
		counts->v[id] += sign;
	}
}

/* The header an `#include` line names, found as a tree path: under
 * include/, at the top, beside the including file. */
static char *include_target(const char *top, const char *from, const char *line)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return NULL;
	for (p++; *p == ' ' || *p == '\t'; p++)
		;
	if (strncmp(p, "include", 7))
		return NULL;
	for (p += 7; *p == ' ' || *p == '\t'; p++)
		;
	char close = *p == '<' ? '>' : *p == '"' ? '"' : 0;
	const char *e = close ? strchr(p + 1, close) : NULL;
	if (!e)
		return NULL;
	char *name = xstrndup(p + 1, (size_t)(e - p - 1));
	char *dir = path_dirname(from);
	char *cands[3] = {xasprintf("%s/include/%s", top, name), xasprintf("%s/%s", top, name),
			  xasprintf("%s/%s/%s", top, dir, name)};
	char *found = NULL;
	for (int k = 0; k < 3; k++) {
		struct stat st;
		if (!found && stat(cands[k], &st) == 0 && S_ISREG(st.st_mode))
			found = cands[k];
		else
			free(cands[k]);
	}
	free(dir);
	free(name);
	return found;
}

/* The identifiers a change touches: those whose count differs between the
 * revision's and the work tree's versions of a changed file, and every
 * identifier of a header an #include line the change removed names (its
 * users lose it). */
static void change_hints(const char *top, const char *rev, const StrVec *changed, Interner *in, IntVec *hint)
{
	IntVec counts = {0};
	StrVec removed_headers = {0};
	for (int i = 0; i < changed->n; i++) {
		StrBuf old = {0};
		bool had = git_show(top, rev, changed->v[i], &old);
		char *abs = path_join(top, changed->v[i]);
		char *now = read_all(abs, NULL);
		free(abs);
		count_identifiers(in, &counts, had ? sb_str(&old) : "", -1);
		count_identifiers(in, &counts, now ? now : "", +1);
		/* an #include line in the old text and not in the new */
		for (char *line = had ? old.buf : NULL; line && *line;) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = 0;
			bool gone = now && !strstr(now, line);
			char *target = gone ? include_target(top, changed->v[i], line) : NULL;
			if (target)
				vec_push(&removed_headers, target);
			line = nl ? nl + 1 : NULL;
		}
		free(now);
		free(old.buf);
	}
	for (int id = 0; id < counts.n; id++)
		if (counts.v[id])
			vec_push(hint, id);
	for (int i = 0; i < removed_headers.n; i++) {
		char *text = read_all(removed_headers.v[i], NULL);
		IntVec c2 = {0};
		count_identifiers(in, &c2, text, 1);
		for (int id = 0; id < c2.n; id++)
			if (c2.v[id] && (id >= counts.n || !counts.v[id]))
				vec_push(hint, id);
		vec_free(&c2);
		free(text);
		free(removed_headers.v[i]);
	}
	vec_free(&removed_headers);
	vec_free(&counts);
}

typedef struct {
	int idx;
	double score;
	const char *tu;
} Ranked;

static int by_score(const void *a, const void *b)
{
	const Ranked *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return strcmp(x->tu, y->tu);
}

/* The order to compile tus in: by the summed rarity (log N/df) of the
 * change's identifiers each TU's own text names, highest first; ties by
 * path.  A TU that uses what moved is the one that breaks. */
static int *failure_order(Session *s, const StrVec *tus, Interner *in, const IntVec *hint)
{
	int n = tus->n;
	int nids = intern_count(in);
	uint8_t *is_hint = xcalloc((size_t)nids + 1, 1);
	for (int i = 0; i < hint->n; i++)
		is_hint[hint->v[i]] = 1;
	int *df = xcalloc((size_t)nids + 1, sizeof(int));
	IntVec *named = xcalloc((size_t)n + 1, sizeof(IntVec));
	for (int t = 0; t < n; t++) {
		char *abs = tu_abspath(s, tus->v[t]);
		char *text = read_all(abs, NULL);
		free(abs);
		size_t len;
		for (const char *p = text, *b; (b = next_identifier(&p, &len));) {
			int id = intern_find(in, b, len);
			if (id >= 0 && id < nids && is_hint[id] == 1) {
				is_hint[id] = 2; /* once per TU */
				vec_push(&named[t], id);
			}
		}
		for (int k = 0; k < named[t].n; k++) {
			is_hint[named[t].v[k]] = 1;
			df[named[t].v[k]]++;
		}
		free(text);
	}
	Ranked *r = xcalloc((size_t)n + 1, sizeof(Ranked));
	for (int t = 0; t < n; t++) {
		r[t] = (Ranked){t, 0, tus->v[t]};
		for (int k = 0; k < named[t].n; k++)
			r[t].score += log((double)(n + 1) / df[named[t].v[k]]);
		vec_free(&named[t]);
	}
	qsort(r, (size_t)n, sizeof(Ranked), by_score);
	int *order = xmalloc(((size_t)n + 1) * sizeof(int));
	for (int t = 0; t < n; t++)
		order[t] = r[t].idx;
	free(r);
	free(named);
	free(df);
	free(is_hint);
	return order;
}

/* ---- verify_run: after, then before for what fails ---- */

/* "build-arm64 (arm64)": the directory's name and the architecture its
 * .config was made for (a comment at its top: "# Linux/arm64 6.12.57
 * Kernel Configuration"). */
static char *config_label(const char *build)
{
	if (!build)
		return xstrdup("the compile commands");
	char *arch = kernel_build_arch(build);
	char *norm = xstrdup(build);
	size_t len = strlen(norm);
	while (len > 1 && norm[len - 1] == '/')
		norm[--len] = 0;
	const char *base = strrchr(norm, '/');
	char *label = arch ? xasprintf("%s (%s)", base ? base + 1 : norm, arch) : xstrdup(base ? base + 1 : norm);
	free(norm);
	free(arch);
	return label;
}

/* One configuration: the affected TUs in their order, compiled after;
 * what fails is compiled again before (unless the change added it).  With
 * fail_fast the compiles go in rounds: a round stops at its first
 * failure, the failures are judged, and a regression ends the run.
 * Appends to out; returns the regressions. */
static int run_config(Session *s, const char *top_abs, const char *rev, const StrVec *changed,
		      const StrVec *changed_abs, Interner *in, const IntVec *hint, const VerifyOpts *o,
		      int config, VerifyTuVec *out, VerifyConfig *vc)
{
	double t0 = now_seconds();
	StrVec tus = {0};
	verify_affected_in(s, o->build, changed_abs, &tus);
	int *order = failure_order(s, &tus, in, hint);
	StrVec todo = {0}, owned = {0};
	for (int i = 0; i < tus.n; i++)
		vec_push(&todo, tus.v[order[i]]);
	free(order);
	int regressions = 0;
	while (todo.n && !g.interrupted) {
		VerifyTuVec round = {0};
		verify_compile(s, &todo, o, &round);
		/* what fails after is compiled again before, unless the change added it */
		StrVec again = {0};
		IntVec again_idx = {0};
		for (int i = 0; i < round.n; i++) {
			VerifyTu *t = &round.v[i];
			t->config = config;
			if (!t->after || t->skipped)
				continue;
			char *rel = rel_to_top(s, top_abs, t->tu);
			bool added = false;
			if (rel) {
				for (int k = 0; k < changed->n && !added; k++)
					if (!strcmp(changed->v[k], rel)) {
						StrBuf sb = {0};
						added = !git_show(top_abs, rev, rel, &sb);
						free(sb.buf);
					}
			}
			free(rel);
			if (added) {
				t->before = 0; /* nothing was broken before the change added it */
				continue;
			}
			vec_push(&again, t->tu);
			vec_push(&again_idx, i);
		}
		if (again.n && !g.interrupted) {
			handlers_push();
			const char *beside = bt_make(top_abs, rev, changed);
			if (!o->quiet)
				fprintf(stderr, "verify: %d TU%s fail%s; compiling %s again with the %s versions of the "
					"%d changed file%s, in %s (the work tree is not touched)\n",
					again.n, again.n == 1 ? "" : "s", again.n == 1 ? "s" : "", again.n == 1 ? "it" : "them",
					rev, changed->n, changed->n == 1 ? "" : "s", beside);
			VerifyOpts ob = *o;
			ob.progress = "TUs before the change";
			ob.redirect_from = top_abs;
			ob.redirect_to = beside;
			ob.memo = false;
			ob.fail_fast = false;
			ob.order = NULL;
			VerifyTuVec before = {0};
			verify_compile(s, &again, &ob, &before);
			bt_free();
			handlers_pop();
			for (int k = 0; k < before.n; k++)
				round.v[again_idx.v[k]].before = before.v[k].after;
			verify_tus_free(&before);
		}
		vec_free(&again);
		vec_free(&again_idx);
		/* the skipped go on in the next round, unless this one regressed */
		StrVec rest = {0};
		for (int i = 0; i < round.n; i++) {
			VerifyTu *t = &round.v[i];
			if (t->after && t->before == 0)
				regressions++;
			if (t->skipped)
				vec_push(&rest, xstrdup(t->tu));
		}
		bool stop = regressions > 0;
		for (int i = 0; i < round.n; i++) {
			VerifyTu *t = &round.v[i];
			if (t->skipped && !stop)
				continue;
			if (t->skipped)
				vc->skipped++;
			else if (t->proven)
				vc->proven++;
			else
				vc->compiled++;
			VerifyTu copy = *t;
			copy.tu = xstrdup(t->tu);
			copy.first_error = t->first_error ? xstrdup(t->first_error) : NULL;
			vec_push(out, copy);
		}
		verify_tus_free(&round);
		vec_free(&todo); /* its strings are tus' */
		if (stop) {
			for (int i = 0; i < rest.n; i++)
				free(rest.v[i]);
			vec_free(&rest);
		}
		for (int i = 0; i < rest.n; i++)
			vec_push(&owned, rest.v[i]);
		todo = rest;
	}
	for (int i = 0; i < owned.n; i++)
		free(owned.v[i]);
	vec_free(&owned);
	vec_free(&todo);
	vc->tus = tus.n;
	vc->regressions = regressions;
	vc->seconds = now_seconds() - t0;
	vc->verified = true;
	for (int i = 0; i < tus.n; i++)
		free(tus.v[i]);
	vec_free(&tus);
	return regressions;
}

int verify_run(Session *s, const char *top, const char *rev, const VerifyOpts *o, VerifyTuVec *out,
	       VerifyConfigVec *configs)
{
	g.interrupted = 0;
	char *top_abs = path_absolute(top);
	StrVec changed = {0};
	git_changed_since(top_abs, rev, &changed);
	StrVec changed_abs = {0};
	for (int i = 0; i < changed.n; i++)
		vec_push(&changed_abs, path_join(top_abs, changed.v[i]));
	Interner *in = interner_new();
	IntVec hint = {0};
	change_hints(top_abs, rev, &changed, in, &hint);
	const StrVec *builds = &s->opt->builds;
	int nconfigs = builds->n > 1 ? builds->n : 1;
	VerifyConfigVec local = {0};
	if (!configs)
		configs = &local;
	int regressions = 0;
	for (int c = 0; c < nconfigs; c++) {
		VerifyConfig vc = {0};
		vc.build = builds->n ? builds->v[c] : NULL;
		vc.label = config_label(vc.build);
		if (!(o->fail_fast && regressions) && !g.interrupted) {
			VerifyOpts oc = *o;
			oc.build = vc.build;
			if (nconfigs > 1 && !o->quiet)
				fprintf(stderr, "verify: configuration %s\n", vc.label);
			regressions += run_config(s, top_abs, rev, &changed, &changed_abs, in, &hint, &oc, c, out, &vc);
		}
		vec_push(configs, vc);
	}
	verify_configs_free(&local);
	vec_free(&hint);
	interner_free(in);
	for (int i = 0; i < changed.n; i++) {
		free(changed.v[i]);
		free(changed_abs.v[i]);
	}
	vec_free(&changed);
	vec_free(&changed_abs);
	free(top_abs);
	return regressions;
}

void verify_configs_free(VerifyConfigVec *v)
{
	for (int i = 0; i < v->n; i++)
		free(v->v[i].label);
	vec_free(v);
}
