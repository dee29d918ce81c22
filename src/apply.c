/*
 * apply.c — edits from findings.  Positions come from the text itself,
 * not from the facts, so a change is placed where a person would put it:
 * a removed include is replaced in place, a new include joins the end of
 * the leading include block.
 */
#include "apply.h"

#include <ctype.h>
#include <string.h>
#include <unistd.h>

void change_init(Change *c, const char *root)
{
	memset(c, 0, sizeof(*c));
	c->root = path_absolute(root);
}

void change_free(Change *c)
{
	for (int i = 0; i < c->files.n; i++) {
		edit_free(c->files.v[i]);
		free(c->files.v[i]);
		free(c->rel.v[i]);
	}
	vec_free(&c->files);
	vec_free(&c->rel);
	free(c->root);
	memset(c, 0, sizeof(*c));
}

EditFile *change_file(Change *c, const char *rel, bool may_create, char **err)
{
	for (int i = 0; i < c->rel.n; i++)
		if (!strcmp(c->rel.v[i], rel))
			return c->files.v[i];
	char *abs = rel[0] == '/' ? xstrdup(rel) : path_join(c->root, rel);
	EditFile *e = xmalloc(sizeof(*e));
	bool ok = edit_load(e, abs, may_create, err);
	free(abs);
	if (!ok) {
		free(e);
		return NULL;
	}
	vec_push(&c->files, e);
	vec_push(&c->rel, xstrdup(rel));
	return e;
}

bool change_empty(const Change *c)
{
	for (int i = 0; i < c->files.n; i++)
		if (edit_changed(c->files.v[i]))
			return false;
	return true;
}

bool change_write(Change *c, char **err)
{
	for (int i = 0; i < c->files.n; i++) {
		EditFile *e = c->files.v[i];
		/* once written, a file is rewritten even if it is back to its
		 * loaded text: the disk holds the earlier stage */
		if (!edit_changed(e) && !c->written)
			continue;
		if (!edit_changed(e) && !e->orig_exists) {
			unlink(e->path);
			continue;
		}
		if (!edit_write(e, err)) {
			/* put back what this change already wrote */
			for (int k = 0; k < i; k++) {
				EditFile *w = c->files.v[k];
				char *ignored = NULL;
				if (!edit_changed(w))
					continue;
				if (w->orig_exists)
					write_file_atomic(w->path, w->orig, w->orig_len, w->mode, &ignored);
				else
					unlink(w->path);
				free(ignored);
			}
			return false;
		}
	}
	c->written = true;
	return true;
}

void change_undo(Change *c)
{
	if (!c->written)
		return;
	for (int i = 0; i < c->files.n; i++) {
		EditFile *e = c->files.v[i];
		char *err = NULL;
		if (!edit_changed(e))
			continue;
		if (!e->orig_exists)
			unlink(e->path);
		else if (!write_file_atomic(e->path, e->orig, e->orig_len, e->mode, &err))
			die("cannot restore %s: %s (its original text is in git)", e->path, err);
	}
	c->written = false;
}

void change_rebase(Change *c)
{
	for (int i = 0; i < c->files.n; i++)
		edit_rebase(c->files.v[i]);
}

void change_diff(Change *c, StrBuf *out)
{
	for (int i = 0; i < c->files.n; i++)
		if (edit_changed(c->files.v[i]))
			edit_diff(c->files.v[i], c->rel.v[i], out);
}

void change_paths(Change *c, StrVec *out)
{
	for (int i = 0; i < c->files.n; i++)
		if (edit_changed(c->files.v[i]))
			vec_push(out, xstrdup(c->files.v[i]->path));
}

/* One line with comments blanked, tracking a block comment across lines. */
static void strip_comments(const char *s, bool *in_comment, StrBuf *out)
{
	out->len = 0;
	for (const char *p = s; *p; p++) {
		if (*in_comment) {
			if (p[0] == '*' && p[1] == '/') {
				*in_comment = false;
				p++;
				sb_addc(out, ' ');
			}
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			*in_comment = true;
			p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '/')
			break;
		if (*p == '"' || *p == '\'') {
			/* keep literals whole: a comment opener inside one is text */
			char q = *p;
			sb_addc(out, *p++);
			while (*p && *p != q) {
				if (*p == '\\' && p[1])
					sb_addc(out, *p++);
				sb_addc(out, *p++);
			}
			if (!*p)
				break;
		}
		sb_addc(out, *p);
	}
	sb_addc(out, 0);
	out->len--;
}

/* The directive word of a line ("include", "ifndef"...), or NULL. */
static const char *directive(const char *t, char *word, size_t cap, const char **rest)
{
	while (isspace((unsigned char)*t))
		t++;
	if (*t != '#')
		return NULL;
	t++;
	while (isspace((unsigned char)*t))
		t++;
	size_t n = 0;
	while (isalpha((unsigned char)t[n]) || t[n] == '_')
		n++;
	if (n >= cap)
		n = cap - 1;
	memcpy(word, t, n);
	word[n] = 0;
	t += n;
	while (isspace((unsigned char)*t))
		t++;
	*rest = t;
	return word;
}

static size_t ident_len(const char *s)
{
	size_t n = 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

/* The include's group: bracket and first directory ("<linux/", "\"x"). */
static size_t group_len(const char *spelling)
{
	const char *slash = strchr(spelling, '/');
	return slash ? (size_t)(slash - spelling + 1) : 1;
}

/* Header name text of an include directive's operand, up to the closer. */
static char *operand(const char *rest)
{
	char close = rest[0] == '<' ? '>' : rest[0] == '"' ? '"' : 0;
	if (!close)
		return NULL;
	const char *e = strchr(rest + 1, close);
	return e ? xstrndup(rest, (size_t)(e - rest + 1)) : NULL;
}

char *include_operand(const char *line)
{
	char word[32];
	const char *rest;
	if (!directive(line, word, sizeof(word), &rest) || strcmp(word, "include"))
		return NULL;
	return operand(rest);
}

int include_insert_before(const EditFile *e, const char *spelling)
{
	VEC(struct { int line; char *name; }) incs = {0};
	bool in_comment = false, continued = false;
	int depth = 0, guard_depth = -1, last_inc = 0, guard_def = 0, first_text = 0;
	int pending_guard = 0; /* line of a top-level #ifndef that may be the guard */
	char guard_name[256] = "";
	StrBuf t = {0};
	for (int n = 1; n <= e->nlines; n++) {
		char *line = edit_line(e, n);
		bool was_continued = continued;
		size_t len = strlen(line);
		continued = len && line[len - 1] == '\\';
		bool starts_in_comment = in_comment;
		strip_comments(line, &in_comment, &t);
		free(line);
		if (was_continued)
			continue;
		const char *s = t.buf;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s) {
			if (!first_text && starts_in_comment && !in_comment)
				first_text = -(n + 1); /* after the opening comment */
			continue;
		}
		char word[32];
		const char *rest;
		if (!directive(s, word, sizeof(word), &rest))
			break; /* the first line of code ends the leading block */
		if (!strcmp(word, "ifndef") && depth == 0 && guard_depth < 0 && !last_inc) {
			size_t k = ident_len(rest);
			if (k && k < sizeof(guard_name)) {
				memcpy(guard_name, rest, k);
				guard_name[k] = 0;
				pending_guard = n;
			}
			depth++;
			continue;
		}
		if (!strcmp(word, "define") && pending_guard && guard_name[0] &&
		    ident_len(rest) == strlen(guard_name) && !strncmp(rest, guard_name, strlen(guard_name))) {
			guard_depth = depth;
			guard_def = n;
			pending_guard = 0;
			continue;
		}
		pending_guard = 0;
		if (!strncmp(word, "if", 2))
			depth++;
		else if (!strcmp(word, "endif"))
			depth--;
		else if ((!strcmp(word, "include") || !strcmp(word, "include_next")) &&
			 (depth == 0 || depth == guard_depth)) {
			last_inc = n;
			char *name = operand(rest);
			if (name) {
				vec_grow(&incs, incs.n + 1);
				incs.v[incs.n].line = n;
				incs.v[incs.n++].name = name;
			}
		}
	}
	free(t.buf);
	/* Follow the file's own order: within the includes of the same group
	 * (<linux/...>, <asm/...>, "local"), when they are sorted, the new one
	 * takes its sorted place; else it ends its group; else the block. */
	int at = 0;
	if (spelling && last_inc) {
		size_t g = group_len(spelling);
		int first = -1, last = -1;
		bool sorted = true;
		for (int i = 0; i < incs.n; i++) {
			if (group_len(incs.v[i].name) != g || strncmp(incs.v[i].name, spelling, g))
				continue;
			if (last >= 0 && strcmp(incs.v[last].name, incs.v[i].name) > 0)
				sorted = false;
			if (first < 0)
				first = i;
			last = i;
		}
		if (last >= 0) {
			at = incs.v[last].line + 1;
			if (sorted && last > first)
				for (int i = first; i <= last; i++)
					if (group_len(incs.v[i].name) == g && !strncmp(incs.v[i].name, spelling, g) &&
					    strcmp(incs.v[i].name, spelling) > 0) {
						at = incs.v[i].line;
						break;
					}
		}
	}
	for (int i = 0; i < incs.n; i++)
		free(incs.v[i].name);
	vec_free(&incs);
	if (at)
		return at;
	if (last_inc)
		return last_inc + 1;
	if (guard_def)
		return guard_def + 1;
	if (first_text < 0)
		return -first_text;
	return 1;
}

bool file_has_include(const EditFile *e, const char *spelling)
{
	for (int n = 1; n <= e->nlines; n++) {
		size_t s = e->line_off[n - 1], t = n < e->nlines ? e->line_off[n] : e->len;
		const char *p = e->data + s;
		char word[32];
		const char *rest;
		char *line = xstrndup(p, t - s);
		bool hit = directive(line, word, sizeof(word), &rest) && !strcmp(word, "include") &&
			   !strncmp(rest, spelling, strlen(spelling));
		free(line);
		if (hit)
			return true;
	}
	return false;
}

bool change_add_include(Change *c, const char *rel, const char *spelling, char **err)
{
	EditFile *e = change_file(c, rel, false, err);
	if (!e)
		return false;
	if (file_has_include(e, spelling))
		return true;
	char *text = xasprintf("#include %s", spelling);
	for (int i = 0; i < e->ins.n; i++)
		if (!strcmp(e->ins.v[i].text, text)) {
			free(text);
			return true;
		}
	edit_insert(e, include_insert_before(e, spelling), text);
	free(text);
	return true;
}

/* A path the edits may touch: inside the tree (session_path is relative). */
static const char *editable_path(Session *s, int file)
{
	const char *p = session_path(s, file);
	return p[0] == '/' ? NULL : p;
}

bool apply_finding(Session *s, Check *ck, const Finding *f, Change *c, char **why)
{
	const char *rel = editable_path(s, f->file);
	if (!rel) {
		*why = xasprintf("%s is outside the tree", session_path(s, f->file));
		return false;
	}
	EditFile *e = change_file(c, rel, false, why);
	if (!e)
		return false;
	if (f->kind != FK_MISSING) {
		char *written = check_written(ck, f->file, f->dir);
		char *line = edit_line(e, (int)f->line);
		char word[32];
		const char *rest;
		bool ok = f->line >= 1 && (int)f->line <= e->nlines &&
			  directive(line, word, sizeof(word), &rest) && !strncmp(word, "include", 7) &&
			  !strncmp(rest, written, strlen(written));
		if (!ok) {
			*why = xasprintf("%s:%u: expected #include %s, found: %s", rel, f->line, written, line);
			free(line);
			free(written);
			return false;
		}
		free(line);
		free(written);
		edit_delete(e, (int)f->line);
		/* what replaces it goes in its place */
		for (int k = 0; k < f->add.n; k++) {
			char *sp = check_spelling(ck, f->file, f->add.v[k]);
			char *text = xasprintf("#include %s", sp);
			if (!file_has_include(e, sp))
				edit_insert(e, (int)f->line, text);
			free(text);
			free(sp);
		}
		for (int k = 0; f->kind == FK_FORWARD && k < f->syms.n; k++) {
			StrBuf d = {0};
			check_sym_text(ck, f->syms.v[k], &d);
			sb_addc(&d, ';');
			edit_insert(e, (int)f->line, sb_str(&d));
			free(d.buf);
		}
	} else {
		IntVec add = f->add;
		int one = f->target;
		if (!add.n) {
			add.v = &one;
			add.n = 1;
		}
		for (int k = 0; k < add.n; k++) {
			char *sp = check_spelling(ck, f->file, add.v[k]);
			bool ok = change_add_include(c, rel, sp, why);
			free(sp);
			if (!ok)
				return false;
		}
	}
	for (int k = 0; k < f->fallout.n; k++) {
		const Fallout *fo = &f->fallout.v[k];
		const char *frel = editable_path(s, fo->file);
		if (!frel)
			continue;
		for (int a = 0; a < fo->add.n; a++) {
			char *sp = check_spelling(ck, fo->file, fo->add.v[a]);
			bool ok = change_add_include(c, frel, sp, why);
			free(sp);
			if (!ok)
				return false;
		}
	}
	return true;
}

char *display_name(const char *rel)
{
	if (!strncmp(rel, "include/", 8) && ends_with(rel, ".h"))
		return xasprintf("<%s>", rel + 8);
	const char *inc = strstr(rel, "/include/");
	if (inc && !strncmp(rel, "arch/", 5) && ends_with(rel, ".h"))
		return xasprintf("<%s>", inc + 9);
	return xstrdup(rel);
}

static char *default_prefix(const char *rel)
{
	const char *b = strrchr(rel, '/');
	b = b ? b + 1 : rel;
	const char *dot = strrchr(b, '.');
	return xstrndup(b, dot ? (size_t)(dot - b) : strlen(b));
}

void wrap_text(StrBuf *msg, const char *text)
{
	int col = 0;
	const char *p = text;
	while (*p) {
		const char *w = p;
		while (*p && *p != ' ')
			p++;
		int n = (int)(p - w);
		if (col && col + 1 + n > 72) {
			sb_addc(msg, '\n');
			col = 0;
		} else if (col) {
			sb_addc(msg, ' ');
			col++;
		}
		sb_add(msg, w, (size_t)n);
		col += n;
		while (*p == ' ')
			p++;
	}
	sb_addc(msg, '\n');
}

void finding_message(Session *s, Check *ck, const Finding *f, const char *prefix, StrBuf *msg)
{
	const char *rel = session_path(s, f->file);
	char *who = display_name(rel);
	char *pre = prefix ? xstrdup(prefix) : default_prefix(rel);
	char *inc = f->dir >= 0 ? check_written(ck, f->file, f->dir) : NULL;
	StrBuf body = {0}, adds = {0};
	for (int k = 0; k < f->add.n; k++) {
		char *sp = check_spelling(ck, f->file, f->add.v[k]);
		sb_addf(&adds, "%s%s", k ? ", " : "", sp);
		free(sp);
	}
	switch (f->kind) {
	case FK_UNUSED:
		sb_addf(msg, "%s: Remove %s from %s\n\n", pre, inc, who);
		sb_addf(&body, "%s includes %s (line %u) but uses nothing it declares, nor anything that "
			"only it brings in.", rel, inc, f->line);
		break;
	case FK_REPLACEABLE:
		sb_addf(msg, "%s: Include %s instead of %s in %s\n\n", pre, sb_str(&adds), inc, who);
		sb_addf(&body, "%s uses nothing %s itself declares, only what it brings in: ", rel, inc);
		check_sym_list(ck, &f->syms, 8, &body);
		sb_addf(&body, ". Include %s directly instead.", sb_str(&adds));
		break;
	case FK_REDUNDANT:
		sb_addf(msg, "%s: Remove redundant %s from %s\n\n", pre, inc, who);
		sb_addf(&body, "%s is already included naturally", inc);
		if (f->via.n >= 4) {
			sb_adds(&body, " through ");
			for (int k = 0; k + 1 < f->via.n; k += 2) {
				sb_addf(&body, "%s%s", k ? " -> " : "", session_path(s, f->via.v[k]));
				if (f->via.v[k + 1])
					sb_addf(&body, ":%d", f->via.v[k + 1]);
			}
		}
		sb_adds(&body, ".");
		break;
	case FK_FORWARD: {
		StrBuf decl = {0};
		for (int k = 0; k < f->syms.n; k++) {
			sb_adds(&decl, k ? ", " : "");
			check_sym_text(ck, f->syms.v[k], &decl);
		}
		sb_addf(msg, "%s: Declare %s instead of including %s in %s\n\n", pre, sb_str(&decl), inc, who);
		sb_addf(&body, "%s uses %s only through pointers: a forward declaration is enough.", rel,
			sb_str(&decl));
		free(decl.buf);
		break;
	}
	case FK_MISSING: {
		char *sp = check_spelling(ck, f->file, f->target);
		StrBuf name = {0};
		check_sym_text(ck, f->sym, &name);
		sb_addf(msg, "%s: Include %s in %s\n\n", pre, sp, who);
		sb_addf(&body, "%s uses %s (line %u), whose home %s it reached only indirectly.", rel,
			sb_str(&name), f->line, sp);
		free(name.buf);
		free(sp);
		break;
	}
	default:
		sb_addf(msg, "%s: Update includes of %s\n\n", pre, who);
	}
	if (f->condition)
		sb_addf(&body, " The include sits under #if %s.", f->condition);
	wrap_text(msg, sb_str(&body));
	if (f->fallout.n) {
		sb_adds(msg, "\nFiles that relied on it for these symbols include their homes directly now:\n\n");
		for (int k = 0; k < f->fallout.n; k++) {
			const Fallout *fo = &f->fallout.v[k];
			sb_addf(msg, "  %s: ", session_path(s, fo->file));
			for (int a = 0; a < fo->add.n; a++) {
				char *sp = check_spelling(ck, fo->file, fo->add.v[a]);
				sb_addf(msg, "%s%s", a ? ", " : "", sp);
				free(sp);
			}
			sb_adds(msg, " (");
			check_sym_list(ck, &fo->syms, 4, msg);
			sb_adds(msg, ")\n");
		}
	}
	free(body.buf);
	free(adds.buf);
	free(inc);
	free(pre);
	free(who);
}
