/*
 * cmd_slim.c — `hdrslim slim TREE HEADER`: where a header's weight comes
 * from, and which #include lines must go for it to leave.
 *
 * The model is HEADER preprocessed on its own: the include graph rooted
 * at HEADER (union of every configuration unless one is given), each
 * node weighing its file's physical lines.  A header X in that closure
 * "brings" the lines of everything it dominates (what would leave with
 * it).  The headers are ranked by that; for each of the heaviest, a
 * minimum cut of the include graph between HEADER and X gives the fewest
 * #include lines (HEADER's own or deeper) whose removal takes X out of
 * the closure, and the lines HEADER alone would have after that cut.
 * Each cut line is classified by what check sees of its file's uses:
 * nothing (drop it), tags through pointers only (declare them), or
 * needed (the declarations that use it must move, or its provider be
 * split into types and API).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "commands.h"
#include "decl.h"
#include "facts.h"
#include "ppcount.h"
#include "session.h"
#include "slim.h"
#include "util.h"

/* names listed per class of a needed line */
enum { MAX_NAMES = 4 };

typedef struct {
	int edge;       /* index in the model's net */
	int kind;       /* -1 needed, else the check finding's kind */
	const Finding *finding;
	char *why;      /* needed: what the file uses from the far side */
} CutLine;

typedef struct {
	int node;                /* X */
	int64_t brings;          /* dominated lines */
	VEC(CutLine) cut;
	int64_t lines_after;     /* HEADER alone once the cut lines are gone */
	int headers_after;
} Heavy;

/* What file node f uses that only the cut's far side provides (the nodes
 * not in stays), in words: the declarations that would have to move with
 * the include, or the complete types a types header would have to give. */
static char *why_needed(SlimModel *m, int f, const char *stays, const char *reached)
{
	uint8_t *side = slim_name_sides(m, stays, reached);
	const Symbols *sy = m->nodes.v[f].file >= 0 ? m->s->ft.files[m->nodes.v[f].file].syms : NULL;
	StrBuf inl = {0}, types = {0}, other = {0};
	IntVec seen_ids = {0};
	int ninl = 0, ntypes = 0, nother = 0;
	if (sy) {
		const SymEntry *p = sym_provides(sy), *u = sym_uses(sy);
		for (uint32_t i = 0; i < sy->nuses; i++) {
			int id = slim_use_id(m, sy, &u[i]);
			if (id < 0 || slim_side(side, id, u[i].flags) != 2)
				continue;
			bool dup = false;
			for (int k = 0; k < seen_ids.n && !dup; k++)
				dup = seen_ids.v[k] == id;
			if (dup)
				continue;
			vec_push(&seen_ids, id);
			/* the definition the use sits in: the nearest provide above */
			const SymEntry *in_def = NULL;
			for (uint32_t k = 0; k < sy->nprovides; k++)
				if (p[k].line <= u[i].line && (!in_def || p[k].line >= in_def->line))
					in_def = &p[k];
			const char *nm = sym_name(sy, &u[i]);
			/* a few names of each class say enough; the count says the rest */
			if ((u[i].flags & UF_TAG) && (u[i].flags & UF_COMPLETE)) {
				if (ntypes++ < MAX_NAMES)
					sb_addf(&types, "%sstruct %.*s", ntypes > 1 ? ", " : "", (int)u[i].name_len, nm);
			} else if (in_def && (in_def->kind == SK_FUNC_DEF || in_def->kind == SK_MACRO) &&
				   !(u[i].flags & UF_COND)) {
				if (ninl++ < MAX_NAMES)
					sb_addf(&inl, "%s%.*s (in %.*s)", ninl > 1 ? ", " : "", (int)u[i].name_len, nm,
						(int)in_def->name_len, sym_name(sy, in_def));
			} else if (nother++ < MAX_NAMES) {
				sb_addf(&other, "%s%s%.*s", nother > 1 ? ", " : "", u[i].flags & UF_TAG ? "struct " : "",
					(int)u[i].name_len, nm);
			}
		}
	}
	StrBuf out = {0};
	if (ntypes)
		sb_addf(&out, "complete types: %s", types.buf);
	if (ntypes > MAX_NAMES)
		sb_addf(&out, " and %d more", ntypes - MAX_NAMES);
	if (ninl)
		sb_addf(&out, "%sin inline or macro bodies: %s", out.len ? "; " : "", inl.buf);
	if (ninl > MAX_NAMES)
		sb_addf(&out, " and %d more", ninl - MAX_NAMES);
	if (nother)
		sb_addf(&out, "%suses %s", out.len ? "; " : "", other.buf);
	if (nother > MAX_NAMES)
		sb_addf(&out, " and %d more", nother - MAX_NAMES);
	free(inl.buf);
	free(types.buf);
	free(other.buf);
	vec_free(&seen_ids);
	free(side);
	if (!out.len) {
		free(out.buf);
		return NULL;
	}
	return out.buf;
}

static int cmp_heavy(const void *a, const void *b)
{
	const Heavy *x = a, *y = b;
	if (x->brings != y->brings)
		return x->brings < y->brings ? 1 : -1;
	return x->node - y->node;
}

static const char *kind_text(int kind)
{
	switch (kind) {
	case FK_UNUSED: return "drop";
	case FK_FORWARD: return "declare";
	case FK_REDUNDANT: return "redundant";
	case FK_REPLACEABLE: return "replace";
	default: return "needed";
	}
}

/* The check finding about the #include at directive dir of file. */
static const Finding *finding_at(const FindingVec *fv, int file, int dir)
{
	for (int i = 0; i < fv->n; i++)
		if (fv->v[i].file == file && fv->v[i].dir == dir && fv->v[i].kind != FK_MISSING)
			return &fv->v[i];
	return NULL;
}

static unsigned long include_line(Session *s, int file, int dir)
{
	const Facts *fc = fs_facts(&s->ft, file);
	if (!fc || dir < 0 || (uint32_t)dir >= fc->ndirs)
		return 0;
	return facts_dirs(fc)[dir].line;
}

typedef struct {
	SlimModel m;
	VEC(Heavy) heavy;
	int64_t lines;
	int headers;
	bool pp_ok;
	char *pp_error;
	bool planned;
	int64_t target;
} Slim;

/* The file and directive of a net edge of the TU graph. */
static void edge_place(Slim *sl, int edge, int *file, int *dir)
{
	const NetEdge *ne = &sl->m.net.edges.v[edge];
	*file = sl->m.nodes.v[ne->from].file;
	*dir = ne->tag >= 0 ? sl->m.g.edges.v[ne->tag].dir : -1;
}

static void print_text(Slim *sl, int top)
{
	Session *s = sl->m.s;
	Check *ck = sl->m.ck;
	printf("%s alone: %lld lines from %d headers\n", sl->m.nodes.v[0].rel, (long long)sl->lines, sl->headers);
	if (sl->pp_ok)
		printf("gcc -E -P with %s%s flags: %llu lines from %d headers\n",
		       sl->m.pp.flags_from ? sl->m.pp.flags_from : "the tree's own", sl->m.pp.flags_from ? "'s" : "",
		       (unsigned long long)sl->m.pp.total, sl->m.pp.headers);
	else if (sl->pp_error)
		printf("gcc -E -P: not counted (%s)\n", sl->pp_error);
	for (int i = 0; i < sl->heavy.n && i < top; i++) {
		Heavy *h = &sl->heavy.v[i];
		printf("\n%s brings %lld lines (%.1f%%)", sl->m.nodes.v[h->node].rel, (long long)h->brings,
		       sl->lines ? 100.0 * (double)h->brings / (double)sl->lines : 0.0);
		printf(": %d #include line%s to cut; then %lld lines from %d headers\n", h->cut.n,
		       h->cut.n == 1 ? "" : "s", (long long)h->lines_after, h->headers_after);
		for (int c = 0; c < h->cut.n; c++) {
			const CutLine *cl = &h->cut.v[c];
			int f, dir;
			edge_place(sl, cl->edge, &f, &dir);
			char *inc = check_written(ck, f, dir);
			printf("  %s:%lu: %s: #include %s", session_path(s, f), include_line(s, f, dir),
			       kind_text(cl->kind), inc);
			if (cl->finding && cl->finding->kind == FK_FORWARD) {
				StrBuf sb = {0};
				check_sym_list(ck, &cl->finding->syms, 6, &sb);
				printf(" (only pointers to %s)", sb.len ? sb.buf : "its tags");
				free(sb.buf);
			}
			if (cl->kind < 0 && cl->why)
				printf(" (%s)", cl->why);
			printf("\n");
			free(inc);
		}
	}
	if (!sl->planned)
		return;
	StrBuf plan = {0};
	slim_plan_text(&sl->m, &plan);
	int64_t last = sl->pp_ok ? (int64_t)sl->m.pp.total : sl->lines;
	if (sl->m.plan.n)
		last = sl->pp_ok ? sl->m.plan.v[sl->m.plan.n - 1].pp_after : sl->m.plan.v[sl->m.plan.n - 1].lines_after;
	printf("\nplan: %d round%s, %lld -> %lld lines%s", sl->m.plan.n, sl->m.plan.n == 1 ? "" : "s",
	       (long long)(sl->pp_ok ? (int64_t)sl->m.pp.total : sl->lines), (long long)last,
	       sl->pp_ok ? " (gcc -E -P)" : "");
	if (sl->target > 0)
		printf(", target %lld%s", (long long)sl->target, last <= sl->target ? " reached" : " not reached");
	printf("\n%s", sb_str(&plan));
	for (int i = 0; i < sl->m.blocked.n && i < top; i++)
		printf("%snot planned: %s\n", i ? "" : "\n", sl->m.blocked.v[i]);
	free(plan.buf);
}

static void print_json(Slim *sl, int top)
{
	Session *s = sl->m.s;
	Check *ck = sl->m.ck;
	StrBuf out = {0};
	sb_addf(&out, "{\"header\": ");
	json_string(&out, sl->m.nodes.v[0].rel);
	sb_addf(&out, ", \"lines\": %lld, \"headers\": %d", (long long)sl->lines, sl->headers);
	if (sl->pp_ok) {
		sb_addf(&out, ", \"gcc\": {\"lines\": %llu, \"headers\": %d, \"flags_from\": ",
			(unsigned long long)sl->m.pp.total, sl->m.pp.headers);
		if (sl->m.pp.flags_from)
			json_string(&out, sl->m.pp.flags_from);
		else
			sb_adds(&out, "null");
		sb_addc(&out, '}');
	}
	sb_adds(&out, ", \"heavy\": [");
	for (int i = 0; i < sl->heavy.n && i < top; i++) {
		Heavy *h = &sl->heavy.v[i];
		sb_addf(&out, "%s\n  {\"file\": ", i ? "," : "");
		json_string(&out, sl->m.nodes.v[h->node].rel);
		sb_addf(&out, ", \"brings\": %lld, \"lines_after\": %lld, \"headers_after\": %d, \"cut\": [",
			(long long)h->brings, (long long)h->lines_after, h->headers_after);
		for (int c = 0; c < h->cut.n; c++) {
			const CutLine *cl = &h->cut.v[c];
			int f, dir;
			edge_place(sl, cl->edge, &f, &dir);
			char *inc = check_written(ck, f, dir);
			sb_addf(&out, "%s{\"file\": ", c ? ", " : "");
			json_string(&out, session_path(s, f));
			sb_addf(&out, ", \"line\": %lu, \"include\": ", include_line(s, f, dir));
			json_string(&out, inc);
			sb_addf(&out, ", \"class\": \"%s\"", kind_text(cl->kind));
			if (cl->kind < 0 && cl->why) {
				sb_addf(&out, ", \"uses\": ");
				json_string(&out, cl->why);
			}
			sb_addf(&out, "}");
			free(inc);
		}
		sb_addf(&out, "]}");
	}
	sb_addf(&out, "\n]");
	if (sl->planned) {
		sb_adds(&out, ", \"plan\": [");
		for (int i = 0; i < sl->m.plan.n; i++) {
			const PlanRound *r = &sl->m.plan.v[i];
			sb_addf(&out, "%s\n  {\"leaves\": ", i ? "," : "");
			json_string(&out, r->what);
			sb_addf(&out, ", \"lines_after\": %lld, \"headers_after\": %d", (long long)r->lines_after,
				r->headers_after);
			if (sl->pp_ok)
				sb_addf(&out, ", \"gcc_lines_after\": %lld", (long long)r->pp_after);
			sb_adds(&out, ", \"steps\": [");
			SlimModel one = sl->m; /* the text of this round alone */
			one.plan.v = (PlanRound *)r;
			one.plan.n = 1;
			StrBuf t = {0};
			slim_plan_text(&one, &t);
			int k = 0;
			for (char *line = strtok(t.buf ? t.buf : (char[]){0}, "\n"); line; line = strtok(NULL, "\n")) {
				if (line[0] == '#')
					continue;
				sb_adds(&out, k++ ? ", " : "");
				json_string(&out, line);
			}
			free(t.buf);
			sb_adds(&out, "]}");
		}
		sb_adds(&out, "\n], \"not_planned\": [");
		for (int i = 0; i < sl->m.blocked.n; i++) {
			sb_adds(&out, i ? ", " : "");
			json_string(&out, sl->m.blocked.v[i]);
		}
		sb_adds(&out, "]");
	}
	sb_adds(&out, "}\n");
	fwrite(out.buf, 1, out.len, stdout);
	free(out.buf);
}

/* The plan as a file for `hdrslim series`. */
static void write_plan(Slim *sl, const char *path, const char *tree)
{
	StrBuf t = {0};
	sb_addf(&t, "# hdrslim slim plan for %s: %lld lines alone", sl->m.nodes.v[0].rel,
		(long long)(sl->pp_ok ? (int64_t)sl->m.pp.total : sl->lines));
	if (sl->pp_ok)
		sb_addf(&t, " (gcc -E -P with %s%s flags)", sl->m.pp.flags_from ? sl->m.pp.flags_from : "the tree's own",
			sl->m.pp.flags_from ? "'s" : "");
	sb_addf(&t, "\n# Carry it out, every commit compiled:\n#   hdrslim series --verify %s %s\n", tree, path);
	sb_adds(&t, "# series runs new headers first, then back-include removals, then the\n"
		    "# include lines; each round's figures are HEADER alone after it.\n");
	slim_plan_text(&sl->m, &t);
	for (int i = 0; i < sl->m.blocked.n; i++)
		sb_addf(&t, "%s# not planned: %s\n", i ? "" : "\n", sl->m.blocked.v[i]);
	char *err = NULL;
	if (!write_file_atomic(path, sb_str(&t), t.len, 0644, &err))
		die("slim: %s", err);
	free(t.buf);
}

static long number_opt(int *argc, char **argv, const char *name, long dflt)
{
	char *text = option_value(argc, argv, "slim", name);
	if (!text)
		return dflt;
	char *end;
	long v = strtol(text, &end, 10);
	if (*end || v < 0 || end == text)
		die("slim: %s needs a number, not '%s'", name, text);
	free(text);
	return v;
}

int cmd_slim(int argc, char **argv)
{
	int top = (int)number_opt(&argc, argv, "--top", 10);
	if (top < 1)
		die("slim: --top needs a positive number");
	long target = number_opt(&argc, argv, "--target", -1);
	long rounds = number_opt(&argc, argv, "--rounds", 30);
	long max_fallout = number_opt(&argc, argv, "--max-fallout", 25);
	char *plan_path = option_value(&argc, argv, "slim", "--plan");
	char *flags_from = option_value(&argc, argv, "slim", "--flags-from");
	bool no_gcc = false;
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--no-gcc")) {
			no_gcc = true;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof(char *));
			argc--;
			i--;
		}
	Options o;
	options_parse(&o, argc, argv, "slim", "--json");
	if (o.args.n != 2)
		die("slim: usage: hdrslim slim [OPTIONS] TREE HEADER");
	if (!o.mode)
		o.mode = 2; /* every configuration, as check */
	const char *tree = o.args.v[0], *h = o.args.v[1];
	size_t hl = strlen(h);
	char *rel = hl > 2 && h[0] == '<' && h[hl - 1] == '>' ? xasprintf("include/%.*s", (int)(hl - 2), h + 1)
							      : xstrdup(h);
	char *tree_abs = path_absolute(tree);
	char *abs = path_join(tree_abs, rel);
	if (access(abs, R_OK) != 0)
		die("slim: %s: No such file or directory", rel);
	Session s;
	IntVec files = {0};
	check_open_session(&s, &o, tree, NULL, 0, &files);
	vec_free(&files);
	int header = fs_add(&s.ft, fs_key(&s.ft, abs), 0);

	Slim sl = {.target = target};
	PpCount pc;
	sl.pp_ok = !no_gcc && ppcount_header(&s, abs, flags_from, &pc, &sl.pp_error);
	slim_open(&sl.m, &s, header, sl.pp_ok ? &pc : NULL);
	slim_measure(&sl.m, NULL, &sl.lines, NULL, &sl.headers);
	int n = sl.m.net.n;
	int64_t *brings = xcalloc((size_t)n + 1, sizeof(int64_t));
	slim_brings(&sl.m, false, brings);
	for (int v = 1; v < n; v++)
		vec_push(&sl.heavy, ((Heavy){.node = v, .brings = brings[v]}));
	free(brings);
	if (sl.heavy.n > 1)
		qsort(sl.heavy.v, (size_t)sl.heavy.n, sizeof(Heavy), cmp_heavy);

	/* the cuts of the heaviest, and check's findings about their files */
	int kept = 0;
	for (int i = 0; i < sl.heavy.n && kept < top; i++) {
		Heavy *hv = &sl.heavy.v[i];
		IntVec cut = {0};
		/* what only forced includes reach stays whatever is cut */
		if (net_min_cut(&sl.m.net, hv->node, &cut) && cut.n) {
			for (int c = 0; c < cut.n; c++) {
				vec_push(&hv->cut, ((CutLine){.edge = cut.v[c], .kind = -1}));
			}
			slim_measure(&sl.m, &cut, &hv->lines_after, NULL, &hv->headers_after);
			char *stays = net_reach(&sl.m.net, &cut, -1), *reached = net_reach(&sl.m.net, NULL, -1);
			for (int c = 0; c < hv->cut.n; c++)
				hv->cut.v[c].why = why_needed(&sl.m, sl.m.net.edges.v[hv->cut.v[c].edge].from, stays, reached);
			free(stays);
			free(reached);
			sl.heavy.v[kept] = *hv;
			if (hv != &sl.heavy.v[kept])
				memset(&hv->cut, 0, sizeof hv->cut);
			kept++;
		}
		vec_free(&cut);
	}
	for (int i = kept; i < sl.heavy.n; i++)
		vec_free(&sl.heavy.v[i].cut);
	sl.heavy.n = kept;
	const FindingVec *fv = &sl.m.findings;
	for (int i = 0; i < sl.heavy.n && i < top; i++)
		for (int c = 0; c < sl.heavy.v[i].cut.n; c++) {
			CutLine *cl = &sl.heavy.v[i].cut.v[c];
			int f, dir;
			edge_place(&sl, cl->edge, &f, &dir);
			cl->finding = finding_at(fv, f, dir);
			cl->kind = cl->finding ? cl->finding->kind : -1;
		}
	if (target >= 0 || plan_path) {
		sl.planned = true;
		slim_plan(&sl.m, target >= 0 ? target : 0, (int)rounds, (int)max_fallout);
		if (plan_path)
			write_plan(&sl, plan_path, tree);
	}
	if (o.json)
		print_json(&sl, top);
	else
		print_text(&sl, top);
	fflush(stdout);

	for (int i = 0; i < sl.heavy.n; i++) {
		for (int c = 0; c < sl.heavy.v[i].cut.n; c++)
			free(sl.heavy.v[i].cut.v[c].why);
		vec_free(&sl.heavy.v[i].cut);
	}
	vec_free(&sl.heavy);
	free(sl.pp_error);
	slim_close(&sl.m);
	session_close(&s);
	free(abs);
	free(tree_abs);
	free(rel);
	free(plan_path);
	free(flags_from);
	options_free(&o);
	return session_status();
}
