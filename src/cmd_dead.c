/*
 * cmd_dead.c — `hdrslim dead [OPTIONS] [TREE] [HEADER...]`: what the
 * headers declare for nobody (dead.h): unused declarations, needless
 * forward declarations and pointless wrappers with their call sites, as
 * compiler-style lines or JSON.  `--cocci DIR` writes a Coccinelle
 * semantic patch per wrapper; `--apply` removes wrappers, one commit
 * each, their call sites rewritten (by spatch when it is installed, else
 * by hdrslim's own rewrite of the call forms), landed like fix's changes.
 *
 * Every apply step analyses the tree afresh: a commit moves the lines the
 * next wrapper's definition and calls are on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apply.h"
#include "commands.h"
#include "dead.h"
#include "proc.h"
#include "progress.h"
#include "steps.h"

typedef struct {
	Options *o;
	const char *tree;
	StrVec headers;   /* absolute paths; empty: every header */
	unsigned kinds;
	bool no_spatch;
} DeadCtx;

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_identifier(const char *w)
{
	if (!*w || !(w[0] == '_' || (w[0] >= 'a' && w[0] <= 'z') || (w[0] >= 'A' && w[0] <= 'Z')))
		return false;
	for (const char *p = w; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

/* A header named on the command line: relative to the tree first, then
 * to the current directory; <linux/x.h> is include/linux/x.h. */
static char *header_path(const char *tree_abs, const char *h)
{
	size_t n = strlen(h);
	char *rel = n > 2 && h[0] == '<' && h[n - 1] == '>' ? xasprintf("include/%.*s", (int)(n - 2), h + 1)
							  : xstrdup(h);
	char *abs = rel[0] == '/' ? xstrdup(rel) : path_join(tree_abs, rel);
	struct stat st;
	if (stat(abs, &st) != 0) {
		free(abs);
		abs = path_absolute(rel);
		if (stat(abs, &st) != 0)
			die("dead: %s: No such file or directory", h);
	}
	free(rel);
	return abs;
}

/* Opens the session and finds the items. */
static void analyse(DeadCtx *cx, Session *s, unsigned kinds, DeadVec *out)
{
	session_open(s, cx->o, cx->tree, true);
	IntVec ids = {0};
	for (int i = 0; i < cx->headers.n; i++)
		vec_push(&ids, fs_add(&s->ft, fs_key(&s->ft, cx->headers.v[i]), 0));
	if (!cx->headers.n)
		for (int i = 0; i < s->ft.nfiles; i++) {
			File *f = &s->ft.files[i];
			if ((f->flags & F_IN_TREE) && !(f->flags & (F_EXCLUDED | F_DIR)) &&
			    ends_with(fs_keystr(&s->ft, f->key), ".h"))
				vec_push(&ids, i);
		}
	dead_run(s, ids.v, ids.n, kinds, out);
	vec_free(&ids);
}

static void params_text(const DeadItem *w, StrBuf *sb)
{
	for (int i = 0; i < w->params.n; i++)
		sb_addf(sb, "%s%s", i ? ", " : "", w->params.v[i]);
}

static void print_text(Session *s, const DeadVec *v)
{
	for (int i = 0; i < v->n; i++) {
		const DeadItem *it = &v->v[i];
		const char *path = session_path(s, it->file);
		switch (it->kind) {
		case DK_DEAD:
			printf("%s:%u: dead: %s %s%s: used nowhere in the tree\n", path, it->line, it->what, it->name,
			       !strcmp(it->what, "prototype") || !strcmp(it->what, "inline function") ? "()" : "");
			if (it->reason)
				printf("%s:%u: note: %s\n", path, it->line, it->reason);
			break;
		case DK_FORWARD:
			printf("%s:%u: needless-forward: %s %s;: %s\n", path, it->line, it->what, it->name, it->reason);
			break;
		default: {
			StrBuf p = {0};
			params_text(it, &p);
			printf("%s:%u: wrapper: %s(%s) is %s; %d call site%s in %d file%s\n", path, it->line, it->name,
			       sb_str(&p), it->expr, it->calls.n, it->calls.n == 1 ? "" : "s", it->call_files,
			       it->call_files == 1 ? "" : "s");
			free(p.buf);
			for (int c = 0; c < it->calls.n; c++)
				printf("%s:%u: note: call of %s()\n", session_path(s, it->calls.v[c].file),
				       it->calls.v[c].line, it->name);
			if (it->other_uses)
				printf("%s:%u: note: also named %d time%s other than in a call: --apply leaves it\n", path,
				       it->line, it->other_uses, it->other_uses == 1 ? "" : "s");
			if (!it->first)
				printf("%s:%u: note: its definition shares a line with other code: --apply leaves it\n",
				       path, it->line);
		}
		}
		if (it->condition)
			printf("%s:%u: note: under #if %s\n", path, it->line, it->condition);
	}
}

static void print_json(Session *s, const DeadVec *v, int nheaders)
{
	StrBuf sb = {0};
	sb_adds(&sb, "{\"tree\": ");
	json_string(&sb, s->ft.root);
	sb_addf(&sb, ", \"headers\": %d", nheaders);
	static const char *const keys[DK_NKINDS] = {"dead", "needless_forward", "wrappers"};
	for (int k = 0; k < DK_NKINDS; k++) {
		sb_addf(&sb, ", \"%s\": [", keys[k]);
		bool first = true;
		for (int i = 0; i < v->n; i++) {
			const DeadItem *it = &v->v[i];
			if (it->kind != k)
				continue;
			sb_adds(&sb, first ? "\n  {" : ",\n  {");
			first = false;
			sb_adds(&sb, "\"file\": ");
			json_string(&sb, session_path(s, it->file));
			sb_addf(&sb, ", \"line\": %u, \"name\": ", it->line);
			json_string(&sb, it->name);
			sb_adds(&sb, ", \"kind\": ");
			json_string(&sb, it->what);
			sb_adds(&sb, ", \"condition\": ");
			if (it->condition)
				json_string(&sb, it->condition);
			else
				sb_adds(&sb, "null");
			if (k != DK_WRAPPER) {
				sb_adds(&sb, ", \"note\": ");
				if (it->reason)
					json_string(&sb, it->reason);
				else
					sb_adds(&sb, "null");
			} else {
				sb_adds(&sb, ", \"params\": [");
				for (int p = 0; p < it->params.n; p++) {
					if (p)
						sb_adds(&sb, ", ");
					json_string(&sb, it->params.v[p]);
				}
				sb_adds(&sb, "], \"expr\": ");
				json_string(&sb, it->expr);
				sb_addf(&sb, ", \"macro\": %s, \"files\": %d, \"other_uses\": %d, \"removable\": %s, "
					"\"call_sites\": [", it->is_macro ? "true" : "false", it->call_files,
					it->other_uses, it->first && !it->other_uses ? "true" : "false");
				for (int c = 0; c < it->calls.n; c++) {
					sb_adds(&sb, c ? ", {\"file\": " : "{\"file\": ");
					json_string(&sb, session_path(s, it->calls.v[c].file));
					sb_addf(&sb, ", \"line\": %u}", it->calls.v[c].line);
				}
				sb_adds(&sb, "]");
			}
			sb_adds(&sb, "}");
		}
		sb_adds(&sb, first ? "]" : "\n]");
	}
	sb_adds(&sb, "}\n");
	fputs(sb_str(&sb), stdout);
	free(sb.buf);
}

static void write_cocci(const DeadVec *v, const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		die("dead: %s: %s", dir, strerror(errno));
	for (int i = 0; i < v->n; i++) {
		if (v->v[i].kind != DK_WRAPPER)
			continue;
		StrBuf sp = {0};
		dead_cocci(&v->v[i], &sp);
		char *path = xasprintf("%s/%s.cocci", dir, v->v[i].name);
		char *err = NULL;
		if (!write_file_atomic(path, sb_str(&sp), sp.len, 0666 & ~0022, &err))
			die("dead: %s", err);
		free(path);
		free(sp.buf);
	}
}

/* ---------------------------------------------------------------- --apply */

static bool have_spatch(void)
{
	const char *argv[] = {"spatch", "--version", NULL};
	return proc_run(argv, NULL, NULL, NULL, NULL) == 0;
}

/* The file rewritten by spatch with w's semantic patch, or NULL. */
static char *spatch_file(const DeadItem *w, const char *abs, size_t *len)
{
	const char *tmp = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/hdrslim-dead-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpl)) {
		free(tmpl);
		return NULL;
	}
	char *sp = xasprintf("%s/w.cocci", tmpl), *out = xasprintf("%s/out.c", tmpl);
	StrBuf text = {0};
	dead_cocci(w, &text);
	char *err = NULL, *result = NULL;
	if (write_file_atomic(sp, sb_str(&text), text.len, 0600, &err)) {
		const char *argv[] = {"spatch", "--very-quiet", "--no-includes", "--sp-file", sp, abs, "-o", out, NULL};
		if (proc_run(argv, NULL, NULL, NULL, NULL) == 0) {
			FILE *fp = fopen(out, "rb");
			if (fp) {
				StrBuf r = {0};
				char buf[65536];
				size_t n;
				while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
					sb_add(&r, buf, n);
				fclose(fp);
				*len = r.len;
				result = r.buf ? r.buf : xstrdup("");
			}
		}
	}
	free(err);
	unlink(out);
	unlink(sp);
	rmdir(tmpl);
	free(text.buf);
	free(sp);
	free(out);
	free(tmpl);
	return result;
}

static char *prefix_for(const char *prefix, const char *header)
{
	if (prefix)
		return xstrdup(prefix);
	const char *b = strrchr(header, '/');
	b = b ? b + 1 : header;
	const char *dot = strrchr(b, '.');
	return xstrndup(b, dot ? (size_t)(dot - b) : strlen(b));
}

/* One wrapper as a change and its commit message.  0: ready; 1: not
 * (any more) a wrapper that can go, *why says why. */
static int wrapper_change(DeadCtx *cx, const char *name, const char *prefix, bool spatch, Change *c, StrBuf *msg,
			  char **why)
{
	Session s;
	DeadVec v = {0};
	analyse(cx, &s, 1u << DK_WRAPPER, &v);
	const DeadItem *w = NULL;
	for (int i = 0; i < v.n && !w; i++)
		if (!strcmp(v.v[i].name, name))
			w = &v.v[i];
	int r = 0;
	if (!w) {
		*why = xasprintf("%s() is not a wrapper with call sites in the named headers", name);
		r = 1;
	} else if (!w->first) {
		*why = xasprintf("%s:%u: %s(): its definition shares a line with other code", session_path(&s, w->file),
				 w->line, name);
		r = 1;
	} else if (w->other_uses) {
		*why = xasprintf("%s:%u: %s() is named %d time%s other than in a call", session_path(&s, w->file),
				 w->line, name, w->other_uses, w->other_uses == 1 ? "" : "s");
		r = 1;
	}
	if (r) {
		dead_free(&v);
		session_close(&s);
		return r;
	}
	IntVec files = {0};
	vec_push(&files, w->file);
	for (int i = 0; i < w->calls.n; i++)
		if (files.v[files.n - 1] != w->calls.v[i].file)
			vec_push(&files, w->calls.v[i].file);
	StrBuf sites = {0};
	int changed = 0, nfiles = 0;
	for (int i = 0; i < files.n && !r; i++) {
		const char *rel = session_path(&s, files.v[i]);
		char *err = NULL;
		EditFile *e = change_file(c, rel, false, &err);
		if (!e) {
			*why = err;
			r = 1;
			break;
		}
		bool home = files.v[i] == w->file;
		const char *base = e->data;
		size_t blen = e->len;
		char *spatched = NULL;
		/* spatch rewrites the .c files' calls; hdrslim's own rewrite
		 * does the header (it also loses the definition) and whatever
		 * spatch left, such as calls in macro bodies */
		if (spatch && !home) {
			char *abs = path_join(c->root, rel);
			size_t sl = 0;
			spatched = spatch_file(w, abs, &sl);
			free(abs);
			if (spatched) {
				base = spatched;
				blen = sl;
			}
		}
		int n = 0;
		size_t outlen;
		char *out = dead_rewrite(w, base, blen, home, &n, &outlen);
		/* the header's own calls are counted with its definition gone */
		int before = home ? n : dead_count_calls(w, e->data, e->len);
		edit_set_content(e, out, outlen);
		free(out);
		free(spatched);
		if (before) {
			sb_addf(&sites, "  %s:", rel);
			for (int k = 0; k < w->calls.n; k++)
				if (w->calls.v[k].file == files.v[i])
					sb_addf(&sites, " %u", w->calls.v[k].line);
			sb_adds(&sites, "\n");
			changed += before;
			nfiles++;
		}
	}
	if (!r) {
		const char *hrel = session_path(&s, w->file);
		char *pre = prefix_for(prefix, hrel);
		char *disp = display_name(hrel);
		StrBuf p = {0};
		params_text(w, &p);
		sb_addf(msg, "%s: Remove the %s() wrapper\n\n", pre, name);
		char *para = w->form == WF_CALL
				     ? xasprintf("%s(%s) only calls %s() with its own parameters: call that at its %d "
						 "call site%s in %d file%s, and remove the wrapper from %s.",
						 name, sb_str(&p), w->callee, changed, changed == 1 ? "" : "s", nfiles,
						 nfiles == 1 ? "" : "s", disp)
				     : xasprintf("%s(%s) only returns %s: write that at its %d call site%s in %d "
						 "file%s, and remove the wrapper from %s.",
						 name, sb_str(&p), w->expr, changed, changed == 1 ? "" : "s", nfiles,
						 nfiles == 1 ? "" : "s", disp);
		wrap_text(msg, para);
		sb_addf(msg, "\nWrapped expression: %s\nCall sites changed:\n%s", w->expr, sb_str(&sites));
		free(para);
		free(p.buf);
		free(pre);
		free(disp);
	}
	free(sites.buf);
	vec_free(&files);
	dead_free(&v);
	session_close(&s);
	return r;
}

static int apply_wrappers(DeadCtx *cx, StepOpts *so, const StrVec *names)
{
	bool spatch = !cx->no_spatch && have_spatch();
	/* Kbuild's .cmd commands name the tree the build was made from; in
	 * another work tree of it (a git worktree) they must compile this one */
	char *srctree = NULL;
	if (cx->o->build) {
		char *link = path_join(cx->o->build, "source");
		srctree = realpath(link, NULL);
		free(link);
		char *here = realpath(cx->tree, NULL);
		if (srctree && here && strcmp(srctree, here))
			so->vo.srctree = srctree;
		free(here);
	}
	Stepper st = {0};
	if (!so->dry_run)
		steps_begin(&st, "dead", cx->o, cx->tree, so);
	int status = EXIT_OK, landed = 0, failed = 0;
	Progress *pr = progress_begin(NULL, "wrappers", names->n);
	for (int i = 0; i < names->n; i++) {
		if (steps_interrupted()) {
			status = 130;
			break;
		}
		Change c;
		change_init(&c, cx->tree);
		StrBuf msg = {0};
		char *why = NULL;
		int r = wrapper_change(cx, names->v[i], so->prefix, spatch, &c, &msg, &why);
		bool made = r == 0;
		if (made && !so->dry_run)
			r = steps_land(&st, &c, msg.buf, &why);
		progress_pause();
		if (made && so->dry_run) {
			StrBuf diff = {0};
			change_diff(&c, &diff);
			printf("# %.*s\n%s", (int)strcspn(sb_str(&msg), "\n"), msg.buf, sb_str(&diff));
			free(diff.buf);
		} else if (made) {
			if (r == 0) {
				printf("dead: %.*s\n", (int)strcspn(msg.buf, "\n"), msg.buf);
				landed++;
			} else if (r == 2) {
				progress_resume();
				die("dead: %s", why);
			} else if (r == 1) {
				printf("dead: dropped: %.*s: %s\n", (int)strcspn(msg.buf, "\n"), msg.buf, why);
				failed++;
			}
		} else {
			printf("dead: skipped: %s\n", why);
			failed++;
		}
		fflush(stdout);
		progress_resume();
		progress_add(pr, 1);
		free(why);
		free(msg.buf);
		change_free(&c);
	}
	progress_end(pr);
	if (!so->dry_run) {
		fprintf(stderr, "dead: %d commit%s, %d not made", landed, landed == 1 ? "" : "s", failed);
		if (so->verify)
			fprintf(stderr, ", %d TUs verified", st.verified_tus);
		fprintf(stderr, " (call sites rewritten by %s)\n", spatch ? "spatch" : "hdrslim");
	}
	if (!so->dry_run)
		steps_end(&st);
	so->vo.srctree = NULL;
	free(srctree);
	if (steps_interrupted())
		status = 130;
	else if (failed)
		status = EXIT_FINDINGS;
	return status;
}


int cmd_dead(int argc, char **argv)
{
	StepOpts so;
	argc = steps_take_options(&so, argc, argv, "dead",
				  "--dry-run,--allow-dirty,--verify,--memo,--cc-wrapper,--timeout,--prefix,--branch,"
				  "--format-patch");
	/* dead's own options: --cocci DIR, --no-spatch, --apply[=A,B] or
	 * --apply A B (the identifiers after it that name no file) */
	char *cocci = NULL;
	bool apply = false, no_spatch = false;
	StrVec names = {0};
	int out = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (!strcmp(a, "--cocci") || !strncmp(a, "--cocci=", 8)) {
			if (a[7] == '=')
				cocci = xstrdup(a + 8);
			else if (i + 1 < argc)
				cocci = xstrdup(argv[++i]);
			else
				die("dead: option '--cocci' needs a directory");
		} else if (!strcmp(a, "--no-spatch")) {
			no_spatch = true;
		} else if (!strcmp(a, "--apply") || !strncmp(a, "--apply=", 8)) {
			apply = true;
			if (a[7] == '=') {
				char *copy = xstrdup(a + 8);
				for (char *t = strtok(copy, ","); t; t = strtok(NULL, ","))
					vec_push(&names, xstrdup(t));
				free(copy);
			} else {
				while (i + 1 < argc && is_identifier(argv[i + 1]) && access(argv[i + 1], F_OK) != 0)
					vec_push(&names, xstrdup(argv[++i]));
			}
		} else {
			argv[out++] = argv[i];
		}
	}
	argv[out] = NULL;
	argc = out;
	Options o;
	options_parse(&o, argc, argv, "dead", "--json,--kinds,--decl-macro,--build+");
	if (o.builds.n > 1 && !apply)
		die("dead: --build given twice: only --apply verifies in several configurations");
	/* names must be dead in every configuration: union mode unless told */
	if (!o.mode)
		o.mode = 2;
	DeadCtx cx = {.o = &o, .no_spatch = no_spatch};
	cx.kinds = kind_list_parse(o.kinds, (1u << DK_NKINDS) - 1, DK_NKINDS, dead_kind_name, DK_FORWARD, "forward", "dead");
	int first = 0;
	const char *tree = o.tree ? o.tree : ".";
	if (o.args.n && is_dir(o.args.v[0])) {
		tree = o.args.v[0];
		first = 1;
	}
	if (!is_dir(tree))
		die("dead: %s: not a directory", tree);
	cx.tree = tree;
	char *tree_abs = path_absolute(tree);
	for (int i = first; i < o.args.n; i++)
		vec_push(&cx.headers, header_path(tree_abs, o.args.v[i]));
	free(tree_abs);

	int status = EXIT_OK;
	if (!apply || !names.n) {
		Session s;
		DeadVec v = {0};
		analyse(&cx, &s, apply ? 1u << DK_WRAPPER : cx.kinds, &v);
		if (apply) {
			for (int i = 0; i < v.n; i++)
				if (v.v[i].first && !v.v[i].other_uses)
					vec_push(&names, xstrdup(v.v[i].name));
		} else {
			if (o.json)
				print_json(&s, &v, cx.headers.n);
			else
				print_text(&s, &v);
			int counts[DK_NKINDS] = {0};
			for (int i = 0; i < v.n; i++)
				counts[v.v[i].kind]++;
			if (!o.json && !o.quiet)
				fprintf(stderr, "dead: %d unused declaration%s, %d needless forward declaration%s, "
					"%d wrapper%s\n", counts[0], counts[0] == 1 ? "" : "s", counts[1],
					counts[1] == 1 ? "" : "s", counts[2], counts[2] == 1 ? "" : "s");
			status = v.n ? EXIT_FINDINGS : EXIT_OK;
		}
		if (cocci)
			write_cocci(&v, cocci);
		dead_free(&v);
		session_close(&s);
	}
	if (apply) {
		if (!names.n) {
			fprintf(stderr, "dead: no wrapper to remove\n");
			status = EXIT_OK;
		} else {
			status = apply_wrappers(&cx, &so, &names);
		}
	}
	if (status == EXIT_OK && session_status() && !apply)
		status = session_status();
	for (int i = 0; i < names.n; i++)
		free(names.v[i]);
	vec_free(&names);
	for (int i = 0; i < cx.headers.n; i++)
		free(cx.headers.v[i]);
	vec_free(&cx.headers);
	free(cocci);
	steps_free_options(&so);
	options_free(&o);
	return status;
}
