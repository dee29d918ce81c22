/*
 * cmd_measure.c — `hdrslim measure [OPTIONS] [TREE] REV1 REV2`: the build
 * impact of a change, the figure a header cleanup is judged by ("30
 * seconds saved on allyesconfig").  For the TUs the change affects it
 * gives, before (REV1) and after (REV2): the lines the preprocessor reads
 * (hdrslim's count: every file of the TU's include closure, each once),
 * gcc -E's output lines on a sample of them, and the time each takes to
 * compile (-fsyntax-only, with its own command, as verify runs it).
 *
 * The user's work tree is never touched, not even for a moment: both
 * revisions are checked out in a second, temporary git work tree (git
 * worktree add, then a checkout of the other revision, which writes only
 * the files that differ): verify's mirror of the work tree with a few
 * files replaced would measure the user's uncommitted edits along with
 * the revisions, and measure needs every file at each revision.  The
 * scratch tree goes when the run ends, however it ends: the measuring
 * runs in a child process and the parent removes the work tree after the
 * child has gone, whether it finished, died (exit 2) or was interrupted.
 *
 * Affected TUs: those whose include closure contains a changed file (or
 * that are one), at either revision; with a Kbuild build directory, the
 * objects whose .cmd dependency list names one (verify_affected).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "edit.h"
#include "facts.h"
#include "git.h"
#include "ppcount.h"
#include "proc.h"
#include "progress.h"
#include "verify.h"

typedef struct {
	char *tu;            /* relative to the tree */
	bool present[2];     /* the file exists at REV1 / REV2 */
	uint64_t lines[2];   /* hdrslim's count */
	bool sampled;
	long gcc[2];         /* gcc -E output lines, -1: not measured or failed */
	double seconds[2];   /* fastest of --repeat compiles, -1: not compiled */
	int status[2];       /* the compile's exit status */
	char *error[2];      /* its first error */
} MTu;
typedef VEC(MTu) MTuVec;

typedef struct {
	/* the command line, parsed again for every session: a session adds
	 * compile_flags.txt's flags to its options */
	int argc;
	char **argv;
	const char *rev_name[2];
	char *hash[2];
	char *top;         /* the user's work tree top */
	char *tree;        /* the user's tree, absolute */
	char *tree_rel;    /* the tree inside the work tree top, "" for the top */
	char *wt;          /* the scratch work tree */
	char *wt_tree;     /* the tree inside it */
	StrVec changed;    /* relative to the top */
	int sample, repeat, top_n, jobs;
	bool jobs_given, json, quiet;
	VerifyOpts vo;
	bool kbuild;
	MTuVec tus;
	/* --header: HEADER preprocessed alone at each revision instead */
	char *header;        /* relative to the tree */
	bool header_present[2];
	uint64_t header_lines[2];
	int header_headers[2];
	bool header_gcc[2];
	uint64_t header_gcc_lines[2];
	int header_gcc_headers[2];
	char *header_flags_from;
	char *header_gcc_error;
	/* a compile_commands.json tree: the user's database with the tree's
	 * paths pointed at the scratch work tree, beside it */
	char *compdb_user;
	char *compdb_copy;
} Measure;


static int count_value(const char *v, const char *name, int min)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < min || n > 1000000)
		die("measure: option '%s' needs a number of at least %d", name, min);
	return (int)n;
}

static int cmp_mtu(const void *a, const void *b)
{
	return strcmp(((const MTu *)a)->tu, ((const MTu *)b)->tu);
}

static MTu *find_tu(Measure *m, const char *tu)
{
	MTu key = {0};
	key.tu = (char *)tu;
	return m->tus.n ? bsearch(&key, m->tus.v, (size_t)m->tus.n, sizeof(MTu), cmp_mtu) : NULL;
}

static void add_tu(Measure *m, const char *tu)
{
	for (int i = 0; i < m->tus.n; i++)
		if (!strcmp(m->tus.v[i].tu, tu))
			return;
	MTu t;
	memset(&t, 0, sizeof(t));
	t.tu = xstrdup(tu);
	for (int k = 0; k < 2; k++) {
		t.gcc[k] = -1;
		t.seconds[k] = -1;
	}
	vec_push(&m->tus, t);
}

/* ---- sessions on the scratch work tree ---- */

/* The command line's options for a session on the scratch tree. */
static void scratch_options(Measure *m, Options *o)
{
	options_parse(o, m->argc, m->argv, "measure", "--json,--top");
	/* a scratch tree's facts would only fill the cache with a tree
	 * nobody will see again */
	o->no_cache = true;
	if (m->compdb_copy) {
		free(o->compdb);
		o->compdb = xstrdup(m->compdb_copy);
	}
}

static void state_open(Measure *m, Session *s, Options *o, bool walk)
{
	scratch_options(m, o);
	session_open(s, o, m->wt_tree, walk);
}

/* The user's compile_commands.json with every mention of the tree's
 * directory pointed at the scratch tree: the commands then compile the
 * revisions' files, while paths outside the tree (a build directory's
 * generated headers, system headers) stay as they are. */
static void copy_compdb(Measure *m)
{
	FILE *f = fopen(m->compdb_user, "rb");
	if (!f)
		die("measure: %s: %s", m->compdb_user, strerror(errno));
	StrBuf in = {0}, out = {0};
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(&in, buf, n);
	fclose(f);
	char *real = realpath(m->tree, NULL);
	const char *from[2] = {m->tree, real};
	for (size_t i = 0; i < in.len;) {
		size_t took = 0;
		for (int k = 0; k < 2 && !took; k++) {
			size_t fl = from[k] ? strlen(from[k]) : 0;
			/* a whole path component: "/src/tree" in "/src/tree/a.c", not in "/src/tree2" */
			if (fl && i + fl <= in.len && !memcmp(in.buf + i, from[k], fl) &&
			    (i + fl == in.len || in.buf[i + fl] == '/' || in.buf[i + fl] == '"' || in.buf[i + fl] == ' '))
				took = fl;
		}
		if (took) {
			sb_adds(&out, m->wt_tree);
			i += took;
		} else {
			sb_addc(&out, in.buf[i]);
			i++;
		}
	}
	free(real);
	char *err = NULL;
	if (!write_file_atomic(m->compdb_copy, out.buf ? out.buf : "", out.len, 0644, &err))
		die("measure: %s", err);
	free(in.buf);
	free(out.buf);
}

static void state_close(Session *s, Options *o)
{
	session_close(s);
	options_free(o);
}

static void checkout(Measure *m, int k)
{
	StrBuf err = {0};
	if (!git_worktree_checkout(m->wt, m->hash[k], &err))
		die("measure: cannot check %s out in %s: %s", m->rev_name[k], m->wt, sb_str(&err));
	free(err.buf);
}

static uint64_t closure_lines(Session *s, const TuGraph *g)
{
	uint64_t sum = 0;
	for (int i = 0; i < g->nodes.n; i++) {
		const Facts *f = s->ft.files[g->nodes.v[i]].facts;
		sum += f ? f->lines : 0;
	}
	return sum;
}

/* Without a build directory: every TU's closure at this revision; the
 * ones holding a changed file join the affected set (the same test as
 * verify_affected), and every TU's lines are kept, for the TUs only the
 * other revision's closures bring in. */
typedef struct {
	char *tu;
	uint64_t lines;
} Lines;
typedef VEC(Lines) LinesVec;

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(((const Lines *)a)->tu, ((const Lines *)b)->tu);
}

static void closures_all(Measure *m, LinesVec *all)
{
	Session s;
	Options o;
	state_open(m, &s, &o, true);
	session_all_units(&s);
	session_prepare(&s, s.cfg.units.v, s.cfg.units.n);
	int nfiles = s.ft.nfiles;
	uint8_t *hit = xcalloc((size_t)nfiles + 1, 1);
	bool deleted = false;
	char *wt_top = m->wt;
	for (int i = 0; i < m->changed.n; i++) {
		char *abs = path_join(wt_top, m->changed.v[i]);
		int id = fs_probe(&s.ft, fs_key(&s.ft, abs));
		if (id >= 0 && id < nfiles)
			hit[id] = 1;
		else
			deleted = true;
		free(abs);
	}
	TuGraph tg;
	memset(&tg, 0, sizeof(tg));
	Progress *pr = progress_begin(NULL, "TUs walked", s.cfg.units.n);
	for (int u = 0; u < s.cfg.units.n; u++) {
		const Unit *un = &s.cfg.units.v[u];
		session_tu(&s, un, &tg);
		bool affected = un->file < nfiles && hit[un->file];
		for (int i = 0; i < tg.nodes.n && !affected; i++)
			affected = tg.nodes.v[i] < nfiles && hit[tg.nodes.v[i]];
		/* a deleted header leaves only a missing include behind */
		affected = affected || (deleted && tg.missing.n);
		const char *path = session_path(&s, un->file);
		Lines l = {xstrdup(path), closure_lines(&s, &tg)};
		vec_push(all, l);
		if (affected)
			add_tu(m, path);
		progress_add(pr, 1);
	}
	progress_end(pr);
	tu_free(&tg);
	free(hit);
	if (all->n)
		qsort(all->v, (size_t)all->n, sizeof(Lines), cmp_lines);
	state_close(&s, &o);
}

/* The lines of the affected TUs at this revision. */
static void closures_of(Measure *m, int k)
{
	Session s;
	Options o;
	state_open(m, &s, &o, false);
	VEC(Unit) units = {0};
	IntVec idx = {0};
	for (int i = 0; i < m->tus.n; i++) {
		char *abs = path_join(m->wt_tree, m->tus.v[i].tu);
		struct stat st;
		if (stat(abs, &st) == 0 && S_ISREG(st.st_mode)) {
			Unit u = session_unit_for_path(&s, abs);
			vec_push(&units, u);
			vec_push(&idx, i);
		}
		free(abs);
	}
	session_prepare(&s, units.v, units.n);
	TuGraph tg;
	memset(&tg, 0, sizeof(tg));
	Progress *pr = progress_begin(NULL, "TUs walked", units.n);
	for (int i = 0; i < units.n; i++) {
		session_tu(&s, &units.v[i], &tg);
		MTu *t = &m->tus.v[idx.v[i]];
		t->present[k] = true;
		t->lines[k] = closure_lines(&s, &tg);
		progress_add(pr, 1);
	}
	progress_end(pr);
	tu_free(&tg);
	vec_free(&units);
	vec_free(&idx);
	state_close(&s, &o);
}

/* ---- the compiler's figures ---- */

static long count_lines(const StrBuf *sb)
{
	long n = 0;
	for (size_t i = 0; i < sb->len; i++)
		n += sb->buf[i] == '\n';
	return n;
}

/* Compiles the TUs present at this revision (--repeat times, keeping each
 * one's fastest), then preprocesses the sampled ones. */
static void compile_state(Measure *m, int k)
{
	Session s;
	Options o;
	state_open(m, &s, &o, false);
	StrVec tus = {0};
	IntVec idx = {0};
	for (int i = 0; i < m->tus.n; i++)
		if (m->tus.v[i].present[k]) {
			vec_push(&tus, m->tus.v[i].tu);
			vec_push(&idx, i);
		}
	VerifyOpts vo = m->vo;
	vo.quiet = true; /* measure names what it compiles itself */
	for (int r = 0; r < m->repeat; r++) {
		if (!m->quiet)
			fprintf(stderr, "measure: compiling %d TU%s at %s%s, %d at a time\n", tus.n,
				tus.n == 1 ? "" : "s", m->rev_name[k], k ? " (after)" : " (before)",
				vo.jobs > 0 ? vo.jobs : cpu_count());
		VerifyTuVec res = {0};
		verify_compile(&s, &tus, &vo, &res);
		for (int i = 0; i < res.n; i++) {
			MTu *t = &m->tus.v[idx.v[i]];
			const VerifyTu *v = &res.v[i];
			if (t->seconds[k] < 0 || v->seconds < t->seconds[k])
				t->seconds[k] = v->seconds;
			if (v->after && !t->status[k]) {
				t->status[k] = v->after;
				t->error[k] = xstrdup(v->first_error ? v->first_error : "");
			}
		}
		verify_tus_free(&res);
	}
	VerifyOpts pre = m->vo;
	pre.mode = "-E";
	int nsampled = 0;
	for (int i = 0; i < m->tus.n; i++)
		nsampled += m->tus.v[i].sampled && m->tus.v[i].present[k];
	Progress *pr = progress_begin(NULL, "TUs preprocessed (gcc -E)", nsampled);
	for (int i = 0; i < m->tus.n; i++) {
		MTu *t = &m->tus.v[i];
		if (!t->sampled || !t->present[k])
			continue;
		char *cwd = NULL, *error = NULL;
		char **argv = verify_command(&s, t->tu, &pre, &cwd, &error);
		if (!argv) {
			warn_at(t->tu, 0, "cannot preprocess: %s", error);
			free(error);
			progress_add(pr, 1);
			continue;
		}
		StrBuf out = {0};
		int st = proc_run((const char *const *)argv, cwd, NULL, &out, NULL);
		if (st == 0)
			t->gcc[k] = count_lines(&out);
		else
			warn_at(t->tu, 0, "gcc -E failed at %s (exit status %d)", m->rev_name[k], st);
		free(out.buf);
		verify_command_free(argv);
		free(cwd);
		progress_add(pr, 1);
	}
	progress_end(pr);
	vec_free(&tus);
	vec_free(&idx);
	state_close(&s, &o);
}

/* A fixed choice of --sample TUs among those present at both revisions:
 * the same on every run, spread over the list rather than its first
 * entries. */
static void choose_sample(Measure *m)
{
	IntVec both = {0};
	for (int i = 0; i < m->tus.n; i++)
		if (m->tus.v[i].present[0] && m->tus.v[i].present[1])
			vec_push(&both, i);
	uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64, a fixed seed */
	int want = m->sample < both.n ? m->sample : both.n;
	for (int i = 0; i < want; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int j = i + (int)(x % (uint64_t)(both.n - i));
		int tmp = both.v[i];
		both.v[i] = both.v[j];
		both.v[j] = tmp;
		m->tus.v[both.v[i]].sampled = true;
	}
	vec_free(&both);
}

/* ---- output ---- */

/* 1234567 -> "1,234,567"; negative numbers keep their sign. */
static const char *grouped(int64_t v, char *buf, size_t size)
{
	char digits[32];
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)u);
	size_t o = 0;
	if (v < 0 && o + 1 < size)
		buf[o++] = '-';
	for (int i = 0; i < n && o + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
	return buf;
}

typedef struct {
	int64_t lines[2], gcc[2], gcc_hdrslim[2];
	double seconds[2];
	int sampled, compiled, failed[2];
} Totals;

static Totals totals_of(const Measure *m)
{
	Totals t;
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < m->tus.n; i++) {
		const MTu *u = &m->tus.v[i];
		bool gcc_both = u->sampled && u->gcc[0] >= 0 && u->gcc[1] >= 0;
		t.sampled += gcc_both;
		for (int k = 0; k < 2; k++) {
			t.lines[k] += (int64_t)u->lines[k];
			if (gcc_both) {
				t.gcc[k] += u->gcc[k];
				t.gcc_hdrslim[k] += (int64_t)u->lines[k];
			}
			if (u->seconds[k] >= 0)
				t.seconds[k] += u->seconds[k];
			t.failed[k] += u->status[k] != 0;
		}
	}
	return t;
}

static int64_t saved_lines(const MTu *u)
{
	return (int64_t)u->lines[0] - (int64_t)u->lines[1];
}

static int by_saved(const void *a, const void *b)
{
	const MTu *x = *(const MTu *const *)a, *y = *(const MTu *const *)b;
	int64_t sx = saved_lines(x), sy = saved_lines(y);
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return strcmp(x->tu, y->tu);
}

static const char *short_hash(const char *h)
{
	static char buf[2][16];
	static int which;
	which ^= 1;
	snprintf(buf[which], sizeof(buf[which]), "%.12s", h);
	return buf[which];
}

static void saved_cell(char *cell, size_t size, int64_t before, int64_t after)
{
	char b[40];
	if (before > 0)
		snprintf(cell, size, "%s (%.1f%%)", grouped(before - after, b, sizeof(b)),
			 100.0 * (double)(before - after) / (double)before);
	else
		snprintf(cell, size, "%s", grouped(before - after, b, sizeof(b)));
}

static void print_text(const Measure *m)
{
	char b0[40], b1[40], b2[40], b3[40], b4[40];
	printf("measure: %d TU%s affected by %d file%s changed between %s (%s) and %s (%s)\n", m->tus.n,
	       m->tus.n == 1 ? "" : "s", m->changed.n, m->changed.n == 1 ? "" : "s", m->rev_name[0],
	       short_hash(m->hash[0]), m->rev_name[1], short_hash(m->hash[1]));
	if (!m->tus.n)
		return;
	const MTu **order = xcalloc((size_t)m->tus.n, sizeof(MTu *));
	for (int i = 0; i < m->tus.n; i++)
		order[i] = &m->tus.v[i];
	qsort(order, (size_t)m->tus.n, sizeof(MTu *), by_saved);
	int shown = m->top_n < 0 ? 10 : m->top_n;
	if (shown > m->tus.n)
		shown = m->tus.n;
	if (shown) {
		printf("\n%-36s %12s %12s %10s %11s %11s %9s %9s\n", "TU (by lines saved)", "lines before",
		       "after", "saved", "gcc -E bef.", "after", "s before", "after");
		for (int i = 0; i < shown; i++) {
			const MTu *u = order[i];
			char g0[24] = "-", g1[24] = "-", s0[24] = "-", s1[24] = "-";
			if (u->gcc[0] >= 0)
				grouped(u->gcc[0], g0, sizeof(g0));
			if (u->gcc[1] >= 0)
				grouped(u->gcc[1], g1, sizeof(g1));
			if (u->seconds[0] >= 0)
				snprintf(s0, sizeof(s0), "%.3f%s", u->seconds[0], u->status[0] ? "!" : "");
			if (u->seconds[1] >= 0)
				snprintf(s1, sizeof(s1), "%.3f%s", u->seconds[1], u->status[1] ? "!" : "");
			printf("%-36s %12s %12s %10s %11s %11s %9s %9s\n", u->tu,
			       u->present[0] ? grouped((int64_t)u->lines[0], b0, sizeof(b0)) : "-",
			       u->present[1] ? grouped((int64_t)u->lines[1], b1, sizeof(b1)) : "-",
			       grouped(saved_lines(u), b2, sizeof(b2)), g0, g1, s0, s1);
		}
		if (shown < m->tus.n)
			printf("(%d more; --top N)\n", m->tus.n - shown);
	}
	free(order);
	Totals t = totals_of(m);
	char gcc_head[64], c0[64], c1[64], c2[64];
	snprintf(gcc_head, sizeof(gcc_head), "lines(gcc -E, %d sampled)", t.sampled);
	printf("\n%-16s %-24s %-28s %s\n", "", "lines(hdrslim)", gcc_head, "compile s");
	for (int k = 0; k < 2; k++) {
		snprintf(c0, sizeof(c0), "%s", grouped(t.lines[k], b0, sizeof(b0)));
		snprintf(c1, sizeof(c1), "%s", t.sampled ? grouped(t.gcc[k], b1, sizeof(b1)) : "-");
		snprintf(c2, sizeof(c2), "%.2f", t.seconds[k]);
		printf("  %-14s %-24s %-28s %s\n", k ? "after" : "before", c0, c1, c2);
	}
	saved_cell(c0, sizeof(c0), t.lines[0], t.lines[1]);
	if (t.sampled)
		saved_cell(c1, sizeof(c1), t.gcc[0], t.gcc[1]);
	else
		snprintf(c1, sizeof(c1), "-");
	if (t.seconds[0] > 0)
		snprintf(c2, sizeof(c2), "%.2f (%.1f%%)", t.seconds[0] - t.seconds[1],
			 100.0 * (t.seconds[0] - t.seconds[1]) / t.seconds[0]);
	else
		snprintf(c2, sizeof(c2), "%.2f", t.seconds[0] - t.seconds[1]);
	printf("  %-14s %-24s %-28s %s\n", "saved", c0, c1, c2);
	if (t.sampled && t.gcc_hdrslim[0] > 0 && t.gcc_hdrslim[1] > 0)
		printf("sample: gcc -E prints %.2f / %.2f lines per hdrslim line before / after "
		       "(%s and %s hdrslim lines in the %d sampled TUs)\n",
		       (double)t.gcc[0] / (double)t.gcc_hdrslim[0], (double)t.gcc[1] / (double)t.gcc_hdrslim[1],
		       grouped(t.gcc_hdrslim[0], b3, sizeof(b3)), grouped(t.gcc_hdrslim[1], b4, sizeof(b4)),
		       t.sampled);
	for (int k = 0; k < 2; k++)
		if (t.failed[k])
			printf("note: %d TU%s did not compile at %s (their times count up to the error)\n",
			       t.failed[k], t.failed[k] == 1 ? "" : "s", m->rev_name[k]);
}

static void json_num_or_null(StrBuf *sb, bool have, double v, bool integer)
{
	if (!have)
		sb_adds(sb, "null");
	else if (integer)
		sb_addf(sb, "%lld", (long long)v);
	else
		sb_addf(sb, "%.6f", v);
}

static void print_json(const Measure *m)
{
	StrBuf sb = {0};
	sb_adds(&sb, "{\"tree\": ");
	json_string(&sb, m->tree);
	sb_adds(&sb, ", \"rev1\": ");
	json_string(&sb, m->rev_name[0]);
	sb_adds(&sb, ", \"rev2\": ");
	json_string(&sb, m->rev_name[1]);
	sb_adds(&sb, ", \"rev1_hash\": ");
	json_string(&sb, m->hash[0]);
	sb_adds(&sb, ", \"rev2_hash\": ");
	json_string(&sb, m->hash[1]);
	sb_adds(&sb, ", \"changed\": [");
	for (int i = 0; i < m->changed.n; i++) {
		if (i)
			sb_adds(&sb, ", ");
		json_string(&sb, m->changed.v[i]);
	}
	Totals t = totals_of(m);
	sb_addf(&sb, "], \"tus\": %d, \"sampled\": %d, \"repeat\": %d,\n \"totals\": {", m->tus.n, t.sampled,
		m->repeat);
	sb_addf(&sb, "\"lines_before\": %lld, \"lines_after\": %lld, \"lines_saved\": %lld, ",
		(long long)t.lines[0], (long long)t.lines[1], (long long)(t.lines[0] - t.lines[1]));
	sb_addf(&sb, "\"gcc_lines_before\": %lld, \"gcc_lines_after\": %lld, \"gcc_lines_saved\": %lld, ",
		(long long)t.gcc[0], (long long)t.gcc[1], (long long)(t.gcc[0] - t.gcc[1]));
	sb_addf(&sb, "\"sample_lines_before\": %lld, \"sample_lines_after\": %lld, ",
		(long long)t.gcc_hdrslim[0], (long long)t.gcc_hdrslim[1]);
	sb_addf(&sb, "\"seconds_before\": %.6f, \"seconds_after\": %.6f, \"seconds_saved\": %.6f, "
		"\"failed_before\": %d, \"failed_after\": %d},\n \"results\": [",
		t.seconds[0], t.seconds[1], t.seconds[0] - t.seconds[1], t.failed[0], t.failed[1]);
	for (int i = 0; i < m->tus.n; i++) {
		const MTu *u = &m->tus.v[i];
		sb_adds(&sb, i ? ",\n  {\"tu\": " : "\n  {\"tu\": ");
		json_string(&sb, u->tu);
		static const char *const when[2] = {"before", "after"};
		for (int k = 0; k < 2; k++) {
			sb_addf(&sb, ", \"lines_%s\": ", when[k]);
			json_num_or_null(&sb, u->present[k], (double)u->lines[k], true);
		}
		sb_addf(&sb, ", \"lines_saved\": %lld, \"sampled\": %s", (long long)saved_lines(u),
			u->sampled ? "true" : "false");
		for (int k = 0; k < 2; k++) {
			sb_addf(&sb, ", \"gcc_lines_%s\": ", when[k]);
			json_num_or_null(&sb, u->gcc[k] >= 0, (double)u->gcc[k], true);
		}
		for (int k = 0; k < 2; k++) {
			sb_addf(&sb, ", \"seconds_%s\": ", when[k]);
			json_num_or_null(&sb, u->seconds[k] >= 0, u->seconds[k], false);
		}
		for (int k = 0; k < 2; k++) {
			sb_addf(&sb, ", \"status_%s\": ", when[k]);
			json_num_or_null(&sb, u->present[k], u->status[k], true);
		}
		for (int k = 0; k < 2; k++) {
			sb_addf(&sb, ", \"error_%s\": ", when[k]);
			if (u->error[k])
				json_string(&sb, u->error[k]);
			else
				sb_adds(&sb, "null");
		}
		sb_addc(&sb, '}');
	}
	sb_adds(&sb, "\n]}\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	free(sb.buf);
}

/* ---- the run ---- */

/* Everything that reads the scratch work tree; runs in the child. */
/* --header at revision k (checked out in the scratch tree): hdrslim's
 * count of HEADER alone (its closure, every file once, in the session's
 * mode) and gcc's (-E -P non-blank lines, with a real TU's flags). */
static void header_alone(Measure *m, int k)
{
	Options o;
	Session s;
	scratch_options(m, &o);
	if (!o.mode)
		o.mode = 2; /* every configuration at once, as slim counts */
	session_open(&s, &o, m->wt_tree, false);
	char *abs = path_join(m->wt_tree, m->header);
	if (access(abs, R_OK) == 0) {
		m->header_present[k] = true;
		int file = fs_add(&s.ft, fs_key(&s.ft, abs), 0);
		Unit u = {file, session_ctx_for_file(&s, file)};
		s.units_only = true; /* the closure is all there is to read */
		session_prepare(&s, &u, 1);
		TuGraph g = {0};
		session_tu(&s, &u, &g);
		m->header_lines[k] = closure_lines(&s, &g);
		m->header_headers[k] = g.nodes.n - 1;
		tu_free(&g);
		PpCount pc;
		char *err = NULL;
		if (ppcount_header(&s, abs, NULL, &pc, &err)) {
			m->header_gcc[k] = true;
			m->header_gcc_lines[k] = pc.total;
			m->header_gcc_headers[k] = pc.headers;
			if (!m->header_flags_from && pc.flags_from)
				m->header_flags_from = xstrdup(pc.flags_from);
			ppcount_free(&pc);
		} else if (!m->header_gcc_error) {
			m->header_gcc_error = err;
			err = NULL;
		}
		free(err);
	}
	free(abs);
	state_close(&s, &o);
}

static void print_header_alone(const Measure *m)
{
	char a[40], b[40], c[40];
	if (m->json) {
		StrBuf out = {0};
		sb_adds(&out, "{\"header\": ");
		json_string(&out, m->header);
		for (int k = 0; k < 2; k++) {
			sb_addf(&out, ", \"%s\": {\"rev\": ", k ? "after" : "before");
			json_string(&out, m->hash[k]);
			if (!m->header_present[k]) {
				sb_adds(&out, ", \"present\": false}");
				continue;
			}
			sb_addf(&out, ", \"lines\": %llu, \"headers\": %d", (unsigned long long)m->header_lines[k],
				m->header_headers[k]);
			if (m->header_gcc[k])
				sb_addf(&out, ", \"gcc_lines\": %llu, \"gcc_headers\": %d",
					(unsigned long long)m->header_gcc_lines[k], m->header_gcc_headers[k]);
			sb_adds(&out, "}");
		}
		sb_adds(&out, ", \"flags_from\": ");
		if (m->header_flags_from)
			json_string(&out, m->header_flags_from);
		else
			sb_adds(&out, "null");
		sb_adds(&out, "}\n");
		fwrite(out.buf, 1, out.len, stdout);
		free(out.buf);
		return;
	}
	printf("measure: %s alone at %s (%s) and %s (%s)\n", m->header, m->rev_name[0], short_hash(m->hash[0]),
	       m->rev_name[1], short_hash(m->hash[1]));
	if (!m->header_present[0] || !m->header_present[1]) {
		printf("  %s does not exist at %s\n", m->header, m->rev_name[m->header_present[0] ? 1 : 0]);
		return;
	}
	printf("\n%-34s %12s %12s %12s\n", "", "before", "after", "saved");
	printf("%-34s %12s %12s %12s\n", "lines (hdrslim: every file once)", grouped((int64_t)m->header_lines[0], a, sizeof a),
	       grouped((int64_t)m->header_lines[1], b, sizeof b),
	       grouped((int64_t)m->header_lines[0] - (int64_t)m->header_lines[1], c, sizeof c));
	printf("%-34s %12d %12d %12d\n", "headers", m->header_headers[0], m->header_headers[1],
	       m->header_headers[0] - m->header_headers[1]);
	if (m->header_gcc[0] && m->header_gcc[1]) {
		printf("%-34s %12s %12s %12s\n", "gcc -E -P non-blank lines",
		       grouped((int64_t)m->header_gcc_lines[0], a, sizeof a),
		       grouped((int64_t)m->header_gcc_lines[1], b, sizeof b),
		       grouped((int64_t)m->header_gcc_lines[0] - (int64_t)m->header_gcc_lines[1], c, sizeof c));
		printf("%-34s %12d %12d %12d\n", "gcc's headers", m->header_gcc_headers[0], m->header_gcc_headers[1],
		       m->header_gcc_headers[0] - m->header_gcc_headers[1]);
		printf("\ngcc counted with %s flags\n", m->header_flags_from ? m->header_flags_from : "the tree's own");
	} else if (m->header_gcc_error) {
		printf("\ngcc -E -P: not counted (%s)\n", m->header_gcc_error);
	}
}

static int run(Measure *m)
{
	StrBuf err = {0};
	if (!m->quiet)
		fprintf(stderr, "measure: checking %s out in %s\n", m->rev_name[0], m->wt);
	if (!git_worktree_add(m->top, m->wt, m->hash[0], &err))
		die("measure: cannot make a work tree of %s in %s: %s", m->rev_name[0], m->wt, sb_str(&err));
	free(err.buf);

	if (m->header) {
		header_alone(m, 0);
		checkout(m, 1);
		header_alone(m, 1);
		print_header_alone(m);
		fflush(stdout);
		return EXIT_OK;
	}
	if (m->kbuild) {
		/* the objects whose dependency lists name a changed file: the
		 * build directory's record, read against the user's tree,
		 * whose paths its .cmd files name */
		Options o;
		options_parse(&o, m->argc, m->argv, "measure", "--json,--top");
		o.no_cache = true;
		Session s;
		session_open(&s, &o, m->tree, false);
		StrVec abs = {0}, tus = {0};
		for (int i = 0; i < m->changed.n; i++)
			vec_push(&abs, path_join(m->top, m->changed.v[i]));
		verify_affected(&s, &abs, &tus);
		for (int i = 0; i < tus.n; i++) {
			add_tu(m, tus.v[i]);
			free(tus.v[i]);
		}
		for (int i = 0; i < abs.n; i++)
			free(abs.v[i]);
		vec_free(&tus);
		vec_free(&abs);
		session_close(&s);
		options_free(&o);
		if (m->tus.n)
			qsort(m->tus.v, (size_t)m->tus.n, sizeof(MTu), cmp_mtu);
		if (!m->quiet)
			fprintf(stderr, "measure: %d object%s of the build depend on the changed files\n", m->tus.n,
				m->tus.n == 1 ? "" : "s");
		closures_of(m, 0);
		checkout(m, 1);
		closures_of(m, 1);
	} else {
		LinesVec all[2] = {{0}, {0}};
		closures_all(m, &all[0]);
		checkout(m, 1);
		closures_all(m, &all[1]);
		if (m->tus.n)
			qsort(m->tus.v, (size_t)m->tus.n, sizeof(MTu), cmp_mtu);
		for (int k = 0; k < 2; k++) {
			for (int i = 0; i < all[k].n; i++) {
				MTu *t = find_tu(m, all[k].v[i].tu);
				if (t) {
					t->present[k] = true;
					t->lines[k] = all[k].v[i].lines;
				}
				free(all[k].v[i].tu);
			}
			vec_free(&all[k]);
		}
	}
	choose_sample(m);
	/* after first: REV2 is checked out now */
	compile_state(m, 1);
	checkout(m, 0);
	compile_state(m, 0);

	if (m->json)
		print_json(m);
	else
		print_text(m);
	fflush(stdout);
	return EXIT_OK;
}

/* ---- the parent: the scratch work tree's keeper ---- */

static volatile sig_atomic_t got_signal;
static volatile pid_t child_pid;
static const int caught[3] = {SIGINT, SIGTERM, SIGHUP};

/* The child is stopped and the parent stays to clean up after it. */
static void forward(int sig)
{
	got_signal = sig;
	if (child_pid > 0)
		kill(child_pid, sig);
}

static void remove_work_tree(Measure *m, const char *scratch)
{
	struct stat st;
	if (lstat(m->wt, &st) == 0) {
		git_worktree_remove(m->top, m->wt);
		if (lstat(m->wt, &st) == 0) {
			/* never registered (git stopped early): plain files */
			const char *rm[] = {"rm", "-rf", "--", m->wt, NULL};
			proc_run(rm, NULL, NULL, NULL, NULL);
		}
	} else {
		/* a record of a work tree git was making when stopped */
		git_worktree_remove(m->top, m->wt);
	}
	if (m->compdb_copy)
		unlink(m->compdb_copy);
	if (rmdir(scratch) < 0 && errno != ENOENT)
		fprintf(stderr, "hdrslim: measure: cannot remove %s: %s\n", scratch, strerror(errno));
}

static void measure_free(Measure *m)
{
	for (int i = 0; i < m->tus.n; i++) {
		free(m->tus.v[i].tu);
		free(m->tus.v[i].error[0]);
		free(m->tus.v[i].error[1]);
	}
	vec_free(&m->tus);
	for (int i = 0; i < m->changed.n; i++)
		free(m->changed.v[i]);
	vec_free(&m->changed);
	free(m->hash[0]);
	free(m->hash[1]);
	free(m->top);
	free(m->tree);
	free(m->tree_rel);
	free(m->wt);
	free(m->wt_tree);
	free(m->argv);
	free(m->header);
	free(m->header_flags_from);
	free(m->header_gcc_error);
	free(m->compdb_user);
	free(m->compdb_copy);
}

int cmd_measure(int argc, char **argv)
{
	Measure m;
	memset(&m, 0, sizeof(m));
	m.sample = 5;
	m.repeat = 1;
	/* measure's own options first; the rest are the shared ones, kept
	 * to be parsed again for each session */
	m.argv = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			while (i < argc)
				m.argv[m.argc++] = argv[i++];
			break;
		}
		if (opt_is(a, "--sample"))
			m.sample = count_value(opt_value(argc, argv, &i, "--sample", "measure"), "--sample", 0);
		else if (opt_is(a, "--repeat"))
			m.repeat = count_value(opt_value(argc, argv, &i, "--repeat", "measure"), "--repeat", 1);
		else if (opt_is(a, "--cc-wrapper"))
			m.vo.cc_wrapper = opt_value(argc, argv, &i, "--cc-wrapper", "measure");
		else if (opt_is(a, "--header"))
			m.header = xstrdup(opt_value(argc, argv, &i, "--header", "measure"));
		else if (opt_is(a, "--timeout"))
			m.vo.timeout = count_value(opt_value(argc, argv, &i, "--timeout", "measure"), "--timeout", 0);
		else {
			if (!strncmp(a, "-j", 2) || opt_is(a, "--jobs"))
				m.jobs_given = true;
			m.argv[m.argc++] = argv[i];
		}
	}
	Options o;
	options_parse(&o, m.argc, m.argv, "measure", "--json,--top");
	if (o.args.n < 2 || o.args.n > 3)
		die("measure: usage: hdrslim measure [OPTIONS] [TREE] REV1 REV2");
	m.vo.jobs = m.jobs_given ? o.jobs : 0;
	m.json = o.json;
	m.quiet = o.quiet;
	m.top_n = o.top;
	int nrev = o.args.n;
	m.rev_name[0] = o.args.v[nrev - 2];
	m.rev_name[1] = o.args.v[nrev - 1];
	const char *tree = nrev == 3 ? o.args.v[0] : o.tree ? o.tree : ".";

	m.top = git_toplevel(tree);
	if (!m.top)
		die("measure: %s is not in a git work tree (measure checks revisions of it out)", tree);
	for (int k = 0; k < 2; k++) {
		m.hash[k] = git_rev(m.top, m.rev_name[k]);
		if (!m.hash[k])
			die("measure: '%s' is not a revision of %s", m.rev_name[k], m.top);
	}
	/* where the tree sits in the work tree, to find it in the scratch one */
	char *real_top = realpath(m.top, NULL), *real_tree = realpath(tree, NULL);
	if (!real_top || !real_tree || !path_has_prefix(real_tree, real_top))
		die("measure: cannot place %s inside %s", tree, m.top);
	m.tree_rel = xstrdup(real_tree[strlen(real_top)] == '/' ? real_tree + strlen(real_top) + 1 : "");
	free(real_top);
	free(real_tree);
	m.tree = path_absolute(tree);
	char *db = path_join(m.tree, "compile_commands.json");
	bool has_db = !o.build && o.kernel != 1 && access(db, F_OK) == 0;
	free(db);
	if (o.compdb || has_db)
		m.compdb_user = o.compdb ? path_absolute(o.compdb) : path_join(m.tree, "compile_commands.json");
	m.kbuild = o.build != NULL;
	if (m.kbuild)
		m.vo.srctree = m.tree; /* the .cmd commands name the user's tree */
	if (m.header) {
		size_t hl = strlen(m.header);
		if (hl > 2 && m.header[0] == '<' && m.header[hl - 1] == '>') {
			char *r = xasprintf("include/%.*s", (int)(hl - 2), m.header + 1);
			free(m.header);
			m.header = r;
		}
	}
	git_changed_between(m.top, m.hash[0], m.hash[1], &m.changed);
	if (!m.changed.n && !m.header) {
		/* nothing to check out or compile */
		if (m.json)
			print_json(&m);
		else
			print_text(&m);
		options_free(&o);
		measure_free(&m);
		return EXIT_OK;
	}

	const char *tmpdir = getenv("TMPDIR");
	char *scratch = xasprintf("%s/hdrslim-measure-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(scratch))
		die("measure: cannot create a directory for the revisions' work tree (%s): %s", scratch,
		    strerror(errno));
	const char *base = strrchr(m.top, '/');
	m.wt = path_join(scratch, base && base[1] ? base + 1 : "tree");
	m.wt_tree = path_join(m.wt, m.tree_rel);
	if (m.compdb_user) {
		m.compdb_copy = path_join(scratch, "compile_commands.json");
		copy_compdb(&m);
	}

	fflush(stdout);
	fflush(stderr);
	struct sigaction sa, old[3];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	for (int k = 0; k < 3; k++)
		sigaction(caught[k], &sa, &old[k]);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		/* a signal stops the child (as it stops verify: an ignored
		 * SIGINT of a background job too); the parent cleans up */
		for (int k = 0; k < 3; k++)
			signal(caught[k], SIG_DFL);
		if (got_signal)
			raise(got_signal);
		int status = run(&m);
		options_free(&o);
		measure_free(&m);
		free(scratch);
		exit(status);
	}
	child_pid = pid;
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	remove_work_tree(&m, scratch);
	for (int k = 0; k < 3; k++)
		sigaction(caught[k], &old[k], NULL);
	options_free(&o);
	measure_free(&m);
	free(scratch);
	if (WIFSIGNALED(st) || got_signal) {
		int sig = WIFSIGNALED(st) ? WTERMSIG(st) : got_signal;
		progress_pause(); /* the child's line */
		fprintf(stderr, "hdrslim: measure: interrupted; the revisions' work tree is removed\n");
		progress_resume();
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return WEXITSTATUS(st);
}
