/*
 * edit.c — applying recorded line edits to a file's bytes, and writing the
 * result so that a crash leaves either the old file or the new one.
 */
#include "edit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"

static void index_lines(EditFile *e);

bool edit_load(EditFile *e, const char *path, bool may_create, char **err)
{
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0) {
		if (errno == ENOENT && may_create) {
			e->mode = 0644;
			e->data = xstrdup("");
			e->line_off = xcalloc(1, sizeof(size_t));
			e->deleted = xcalloc(1, sizeof(bool));
			e->orig = xstrdup("");
			return true;
		}
		*err = xasprintf("%s: cannot open: %s", path, strerror(errno));
		return false;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		*err = xasprintf("%s: not a regular file", path);
		close(fd);
		return false;
	}
	e->exists = true;
	e->mode = st.st_mode & 07777;
	e->len = (size_t)st.st_size;
	e->data = xmalloc(e->len + 1);
	size_t got = 0;
	while (got < e->len) {
		ssize_t r = read(fd, e->data + got, e->len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*err = xasprintf("%s: read error: %s", path, r ? strerror(errno) : "file shrank");
			close(fd);
			return false;
		}
		got += (size_t)r;
	}
	close(fd);
	e->data[e->len] = 0;
	index_lines(e);
	e->crlf = e->nlines && e->line_off[1 > e->nlines ? e->nlines : 1] >= 2 &&
		  e->data[e->line_off[1] - 1] == '\n' && e->data[e->line_off[1] - 2] == '\r';
	e->orig = xstrndup(e->data, e->len);
	e->orig_len = e->len;
	e->orig_exists = true;
	return true;
}

/* Line table of e->data. */
static void index_lines(EditFile *e)
{
	int n = 0;
	for (size_t i = 0; i < e->len; i++)
		if (e->data[i] == '\n')
			n++;
	if (e->len && e->data[e->len - 1] != '\n')
		n++;
	e->nlines = n;
	free(e->line_off);
	e->line_off = xmalloc((size_t)(n + 1) * sizeof(size_t));
	int k = 0;
	e->line_off[k++] = 0;
	for (size_t i = 0; i < e->len && k <= n; i++)
		if (e->data[i] == '\n' && k < n)
			e->line_off[k++] = i + 1;
	e->line_off[n] = e->len;
	free(e->deleted);
	e->deleted = xcalloc((size_t)n + 2, sizeof(bool));
}

void edit_rebase(EditFile *e)
{
	StrBuf now = {0};
	edit_render(e, &now);
	free(e->data);
	e->data = now.buf;
	e->len = now.len;
	for (int i = 0; i < e->ins.n; i++)
		free(e->ins.v[i].text);
	e->ins.n = 0;
	e->replaced = false;
	e->repl.len = 0;
	e->exists = true;
	index_lines(e);
}

void edit_free(EditFile *e)
{
	free(e->path);
	free(e->data);
	free(e->line_off);
	free(e->deleted);
	for (int i = 0; i < e->ins.n; i++)
		free(e->ins.v[i].text);
	vec_free(&e->ins);
	free(e->repl.buf);
	free(e->orig);
	memset(e, 0, sizeof(*e));
}

/* Bytes of line n: [*start, *end) without the line ending. */
static void line_span(const EditFile *e, int n, size_t *start, size_t *end, size_t *next)
{
	*start = e->line_off[n - 1];
	*next = n < e->nlines ? e->line_off[n] : e->len;
	size_t t = *next;
	if (t > *start && e->data[t - 1] == '\n')
		t--;
	if (t > *start && e->data[t - 1] == '\r')
		t--;
	*end = t;
}

char *edit_line(const EditFile *e, int n)
{
	if (n < 1 || n > e->nlines)
		return xstrdup("");
	size_t s, t, next;
	line_span(e, n, &s, &t, &next);
	return xstrndup(e->data + s, t - s);
}

void edit_delete(EditFile *e, int line)
{
	if (line < 1 || line > e->nlines)
		BUG("edit_delete: line out of range");
	e->deleted[line] = true;
}

void edit_insert(EditFile *e, int before, const char *text)
{
	if (before < 1 || before > e->nlines + 1)
		BUG("edit_insert: line out of range");
	EditInsert in = {before, e->ins.n, xstrdup(text)};
	vec_push(&e->ins, in);
}

void edit_set_content(EditFile *e, const char *data, size_t len)
{
	e->replaced = true;
	e->repl.len = 0;
	sb_add(&e->repl, data, len);
}

bool edit_changed(const EditFile *e)
{
	StrBuf now = {0};
	edit_render(e, &now);
	bool changed = !e->orig_exists || now.len != e->orig_len || memcmp(now.buf, e->orig, now.len);
	free(now.buf);
	return changed;
}

static int cmp_insert(const void *a, const void *b)
{
	const EditInsert *x = a, *y = b;
	if (x->before != y->before)
		return x->before < y->before ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

void edit_render(const EditFile *e, StrBuf *out)
{
	out->len = 0;
	if (e->replaced) {
		sb_add(out, e->repl.buf ? e->repl.buf : "", e->repl.len);
		return;
	}
	EditInsert *ins = xmalloc((size_t)(e->ins.n + 1) * sizeof(*ins));
	if (e->ins.n)
		memcpy(ins, e->ins.v, (size_t)e->ins.n * sizeof(*ins));
	qsort(ins, (size_t)e->ins.n, sizeof(*ins), cmp_insert);
	const char *eol = e->crlf ? "\r\n" : "\n";
	int k = 0;
	for (int n = 1; n <= e->nlines + 1; n++) {
		for (; k < e->ins.n && ins[k].before == n; k++) {
			/* Appending after a last line without newline: end that
			 * line first, and leave the new last line without one. */
			if (n == e->nlines + 1 && out->len && out->buf[out->len - 1] != '\n')
				sb_adds(out, eol);
			sb_adds(out, ins[k].text);
			if (n <= e->nlines || k + 1 < e->ins.n || !e->len || e->data[e->len - 1] == '\n')
				sb_adds(out, eol);
		}
		if (n > e->nlines)
			break;
		if (e->deleted[n])
			continue;
		size_t s = e->line_off[n - 1];
		size_t next = n < e->nlines ? e->line_off[n] : e->len;
		sb_add(out, e->data + s, next - s);
	}
	free(ins);
	if (!out->buf)
		sb_add(out, "", 0);
}

void edit_diff(const EditFile *e, const char *name, StrBuf *out)
{
	StrBuf now = {0};
	edit_render(e, &now);
	char a[] = "/tmp/hdrslim-diff-a.XXXXXX", b[] = "/tmp/hdrslim-diff-b.XXXXXX";
	int fa = mkstemp(a), fb = mkstemp(b);
	if (fa < 0 || fb < 0)
		die("cannot create a temporary file: %s", strerror(errno));
	if ((e->orig_len && write(fa, e->orig, e->orig_len) != (ssize_t)e->orig_len) ||
	    (now.len && write(fb, now.buf, now.len) != (ssize_t)now.len))
		die("cannot write a temporary file: %s", strerror(errno));
	close(fa);
	close(fb);
	char *la = e->orig_exists ? xasprintf("a/%s", name) : xstrdup("/dev/null");
	char *lb = xasprintf("b/%s", name);
	const char *argv[] = {"diff", "-u", "--label", la, "--label", lb, a, b, NULL};
	int st = proc_run(argv, NULL, NULL, out, NULL);
	if (st > 1)
		die("diff failed (status %d)", st);
	unlink(a);
	unlink(b);
	free(la);
	free(lb);
	free(now.buf);
}

/* mkdir -p for a new file's directory. */
static void make_dirs(const char *dir)
{
	struct stat st;
	if (!*dir || stat(dir, &st) == 0)
		return;
	char *up = path_dirname(dir);
	if (strcmp(up, dir))
		make_dirs(up);
	free(up);
	mkdir(dir, 0777);
}

bool write_file_atomic(const char *path, const char *data, size_t len, mode_t mode, char **err)
{
	char *dir = path_dirname(path);
	make_dirs(dir);
	char *tmp = xasprintf("%s/.hdrslim-tmp.XXXXXX", dir);
	free(dir);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		*err = xasprintf("%s: cannot create a temporary file beside it: %s", path, strerror(errno));
		free(tmp);
		return false;
	}
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			*err = xasprintf("%s: write error: %s", path, strerror(errno));
			goto fail;
		}
		off += (size_t)w;
	}
	if (fchmod(fd, mode) || fsync(fd)) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		*err = xasprintf("%s: write error: %s", path, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path)) {
		*err = xasprintf("%s: cannot replace: %s", path, strerror(errno));
		goto fail;
	}
	free(tmp);
	return true;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return false;
}

bool edit_write(const EditFile *e, char **err)
{
	StrBuf now = {0};
	edit_render(e, &now);
	bool ok = write_file_atomic(e->path, now.buf, now.len, e->mode, err);
	free(now.buf);
	return ok;
}
