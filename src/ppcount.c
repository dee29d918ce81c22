/*
 * ppcount.c — a header preprocessed alone, counted and attributed (see
 * ppcount.h).  The source is a temporary file outside the tree holding
 * one line, `#include "/abs/header.h"`; the TU that lends its command
 * gives the include paths, the forced -includes and the -D's of its
 * configuration.  Counting follows `gcc -E -P`: that output differs from
 * plain -E only in having no linemarkers and fewer blank lines, so the
 * non-blank lines of -E that are not linemarkers are the lines -E -P
 * prints (the tests compare the two).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ppcount.h"
#include "proc.h"
#include "verify.h"

/* The TU whose flags a header alone is compiled with. */
static char *default_tu(Session *s, const char *abs)
{
	bool commands = s->opt->build || s->opt->compdb;
	char *db = path_join(s->ft.root, "compile_commands.json");
	struct stat st;
	if (!s->kernel && stat(db, &st) == 0)
		commands = true;
	free(db);
	if (!commands) /* the session's own flags: any name will do */
		return xstrdup(abs);
	if (s->kernel) {
		char *fork = path_join(s->ft.root, "kernel/fork.c");
		bool have = access(fork, R_OK) == 0;
		free(fork);
		if (have)
			return xstrdup("kernel/fork.c");
	}
	StrVec changed = {0}, tus = {0};
	size_t rl = strlen(s->ft.root);
	vec_push(&changed, xstrdup(path_has_prefix(abs, s->ft.root) && abs[rl] == '/' ? abs + rl + 1 : abs));
	verify_affected(s, &changed, &tus);
	char *tu = tus.n ? xstrdup(tus.v[0]) : NULL;
	for (int i = 0; i < tus.n; i++)
		free(tus.v[i]);
	vec_free(&tus);
	free(changed.v[0]);
	vec_free(&changed);
	return tu;
}

static PpFile *file_for(PpCount *pc, const char *name, size_t len, const char *cwd)
{
	char *raw = xstrndup(name, len);
	char *p = raw[0] == '/' ? xstrdup(raw) : path_join(cwd, raw);
	path_normalize(p);
	char *real = realpath(p, NULL);
	if (real) {
		free(p);
		p = real;
	}
	free(raw);
	for (int i = pc->files.n - 1; i >= 0; i--)
		if (!strcmp(pc->files.v[i].path, p)) {
			free(p);
			return &pc->files.v[i];
		}
	vec_push(&pc->files, ((PpFile){.path = p}));
	return &pc->files.v[pc->files.n - 1];
}

/* Reads gcc -E output: `# N "file" flags` sets the place of the next
 * line; every other non-blank line counts for its place. */
static void attribute(PpCount *pc, const char *text, const char *cwd, const char *source)
{
	PpFile *cur = NULL;
	uint32_t line = 1;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (p[0] == '#' && p[1] == ' ' && p[2] >= '0' && p[2] <= '9') {
			char *end;
			unsigned long n = strtoul(p + 2, &end, 10);
			const char *q = strchr(end, '"');
			const char *qe = q ? strchr(q + 1, '"') : NULL;
			if (q && qe && qe < p + len) {
				if (q[1] == '<')
					cur = NULL; /* <built-in>, <command-line> */
				else
					cur = file_for(pc, q + 1, (size_t)(qe - q - 1), cwd);
				line = (uint32_t)n;
			}
		} else {
			bool blank = true;
			for (size_t k = 0; k < len && blank; k++)
				blank = p[k] == ' ' || p[k] == '\t' || p[k] == '\r' || p[k] == '\f';
			if (!blank) {
				pc->total++;
				if (cur) {
					cur->lines++;
					if (cur->by_line.n && cur->by_line.v[cur->by_line.n - 1].line == line)
						cur->by_line.v[cur->by_line.n - 1].n++;
					else
						vec_push(&cur->by_line, ((PpLine){line, 1}));
				}
			}
			line++;
		}
		p += len + (eol ? 1 : 0);
	}
	/* the source itself is not a header; a file entered more than once
	 * (a header without a guard) is one file */
	for (int i = 0; i < pc->files.n; i++)
		if (strcmp(pc->files.v[i].path, source))
			pc->headers++;
}

bool ppcount_header(Session *s, const char *abs, const char *flags_tu, PpCount *out, char **err)
{
	memset(out, 0, sizeof(*out));
	char *tu = flags_tu ? xstrdup(flags_tu) : default_tu(s, abs);
	if (!tu) {
		*err = xstrdup("no TU of the build includes it (name one with --flags-from TU)");
		return false;
	}
	const char *tmp = getenv("TMPDIR");
	char *src = xasprintf("%s/hdrslim-alone-XXXXXX.c", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemps(src, 2);
	if (fd < 0) {
		*err = xasprintf("cannot create %s", src);
		free(src);
		free(tu);
		return false;
	}
	char *line = xasprintf("#include \"%s\"\n", abs);
	bool wrote = write(fd, line, strlen(line)) == (ssize_t)strlen(line);
	close(fd);
	free(line);
	VerifyOpts vo = {.mode = "-E", .source = src, .quiet = true};
	char *cwd = NULL, *error = NULL;
	char **argv = wrote ? verify_command(s, tu, &vo, &cwd, &error) : NULL;
	bool ok = false;
	if (!wrote) {
		*err = xasprintf("cannot write %s", src);
	} else if (!argv) {
		*err = xasprintf("no command for %s: %s", tu, error ? error : "?");
	} else {
		StrBuf o = {0}, e = {0};
		int st = proc_run((const char *const *)argv, cwd, NULL, &o, &e);
		if (st) {
			char *first = proc_first_error(sb_str(&e));
			*err = xasprintf("the compiler failed (exit status %d) with %s's command: %s", st, tu, first);
			free(first);
		} else {
			char *real = realpath(src, NULL);
			attribute(out, sb_str(&o), cwd ? cwd : s->ft.root, real ? real : src);
			free(real);
			/* no name when the session's own flags were used */
			if (strcmp(tu, abs)) {
				out->flags_from = tu;
				tu = NULL;
			}
			ok = true;
		}
		free(o.buf);
		free(e.buf);
	}
	unlink(src);
	free(src);
	free(error);
	free(cwd);
	verify_command_free(argv);
	free(tu);
	return ok;
}

static const PpFile *find(const PpCount *pc, const char *abs)
{
	for (int i = 0; i < pc->files.n; i++)
		if (!strcmp(pc->files.v[i].path, abs))
			return &pc->files.v[i];
	char *real = realpath(abs, NULL);
	const PpFile *hit = NULL;
	for (int i = 0; real && i < pc->files.n && !hit; i++)
		if (!strcmp(pc->files.v[i].path, real))
			hit = &pc->files.v[i];
	free(real);
	return hit;
}

uint64_t ppcount_file(const PpCount *pc, const char *abs)
{
	const PpFile *f = find(pc, abs);
	return f ? f->lines : 0;
}

uint64_t ppcount_span(const PpCount *pc, const char *abs, int first, int last)
{
	const PpFile *f = find(pc, abs);
	uint64_t n = 0;
	for (int i = 0; f && i < f->by_line.n; i++)
		if ((int)f->by_line.v[i].line >= first && (int)f->by_line.v[i].line <= last)
			n += f->by_line.v[i].n;
	return n;
}

void ppcount_free(PpCount *pc)
{
	for (int i = 0; i < pc->files.n; i++) {
		free(pc->files.v[i].path);
		vec_free(&pc->files.v[i].by_line);
	}
	vec_free(&pc->files);
	free(pc->flags_from);
	memset(pc, 0, sizeof(*pc));
}
