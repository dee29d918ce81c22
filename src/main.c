/*
 * main.c — hdrslim's entry point: the subcommand table, each command's
 * options for `hdrslim help COMMAND` (doc/hdrslim.1 says the same; t19
 * checks it) and the top-level help.
 * Adding a command is one row here and one cmd_<name>.c file.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "util.h"

#define HDRSLIM_VERSION "0.1"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *options; /* its own options, as `man hdrslim` lists them */
} commands[] = {
	{"deps", cmd_deps, "deps [OPTIONS] FILE...        the headers a TU includes (the set gcc -M lists)",
	 "  --make               make rules (target: prerequisites)\n"
	 "  -MG                  list missing headers as spelled\n"
	 "  --dot                the include graph, for Graphviz (dot -Tsvg)\n"},
	{"cost", cmd_cost, "cost [OPTIONS] [TREE]         which headers cost the build most",
	 "  --sort METRIC        added, build_lines, lines ... (the metrics --json gives)\n"
	 "  --top N              the N heaviest headers\n"
	 "  --json               machine-readable output\n"
	 "  --dot                the top headers and the includes between them, for Graphviz\n"
	 "  --no-memo            compute again even if no input changed since the last run\n"},
	{"why", cmd_why, "why  [OPTIONS] FILE HEADER    every include chain from FILE to HEADER",
	 "  --max N              at most N chains\n"
	 "  --dot                the chains as one graph, for Graphviz\n"},
	{"check", cmd_check, "check [OPTIONS] [TREE] [FILE...] unused, redundant, replaceable, missing includes",
	 "  --json               machine-readable output\n"
	 "  --kinds=K,...        unused, replaceable, redundant, missing, forward\n"
	 "  --policy=minimal|strict  strict: include what you use\n"
	 "  --mapping FILE       private -> public headers, one \"<a.h> -> <b.h>\" a line\n"
	 "  --decl-macro NAME[,NAME]  macros whose identifier arguments are declared names\n"},
	{"fix", cmd_fix, "fix  [OPTIONS] [TREE] [FILE...] apply check's findings, one commit each",
	 "  --kinds=K,...        the findings to apply (as check)\n"
	 "  --verify             compile what each commit touches; refuse one that breaks\n"
	 "  --dry-run            print the commits, change nothing\n"
	 "  --allow-dirty        run on a work tree with changes\n"
	 "  --prefix TEXT        subject prefix of the commits\n"
	 "  --branch NAME        commit on a new branch\n"
	 "  --squash-per-file    one commit per file instead of one per finding\n"
	 "  --format-patch DIR   also write the commits as patches into DIR\n"
	 "  --cc-wrapper CMD  --timeout S  --memo  (as verify)\n"},
	{"verify", cmd_verify, "verify [OPTIONS] [TREE] [--since REV] compile what the changes since REV touch",
	 "  --since REV          compare with REV (default HEAD)\n"
	 "  --build DIR          a Kbuild output directory; twice or more: every one must pass\n"
	 "  --cc-wrapper CMD     run each compile through CMD (ccache; distcc, icecc: -c, output thrown away)\n"
	 "  --timeout S          per-compile timeout in seconds\n"
	 "  --memo               preprocess first; skip the compile of a TU whose command and\n"
	 "                       preprocessed output passed before\n"
	 "  --fail-fast          stop at the first regression (fix, series: always)\n"
	 "  --json               machine-readable output\n"},
	{"series", cmd_series, "series [OPTIONS] TREE PLAN    a cleanup plan as a bisectable series of commits",
	 "  --verify  --dry-run  --allow-dirty  --branch NAME  --prefix TEXT  --format-patch DIR\n"
	 "  --build DIR (more than once)  --cc-wrapper CMD  --timeout S  --memo  (as fix and verify)\n"},
	{"measure", cmd_measure, "measure [OPTIONS] [TREE] REV1 REV2 lines and compile time a change saves",
	 "  --header FILE        FILE preprocessed alone, instead of the TUs\n"
	 "  --sample N           TUs preprocessed with gcc -E (default 5)\n"
	 "  --repeat R           timing runs per TU\n"
	 "  --top N              the N TUs that save most\n"
	 "  --json               machine-readable output\n"
	 "  --cc-wrapper CMD  --timeout S  (as verify)\n"},
	{"dead", cmd_dead, "dead [OPTIONS] [TREE] [HEADER...] unused declarations, needless forward declarations, wrappers",
	 "  --json               machine-readable output\n"
	 "  --kinds=K,...        dead, needless-forward, wrapper\n"
	 "  --cocci DIR          a Coccinelle rule per wrapper, written into DIR\n"
	 "  --apply[=NAME,...]   remove them, one commit each (takes fix's options)\n"
	 "  --no-spatch          never run spatch, even when it is installed\n"},
	{"slim", cmd_slim, "slim [OPTIONS] TREE HEADER    where a header's weight comes from, and the cuts that remove it",
	 "  --target LINES       stop when HEADER alone is this small\n"
	 "  --plan FILE          write the plan, for series\n"
	 "  --rounds N           at most N rounds\n"
	 "  --max-fallout N      no removal that adds includes to more files (default 25)\n"
	 "  --top N              explain the N heaviest headers\n"
	 "  --flags-from FILE    count gcc's lines with the compile command of this .c\n"
	 "  --no-gcc             count physical lines only\n"
	 "  --json               machine-readable output\n"},
	{"split", cmd_split, "split [OPTIONS] TREE HEADER    proposed sub-headers of a header, with savings",
	 "  --by=definer         one group per .c file defining the functions\n"
	 "  --plan FILE          write the proposal as a series plan\n"
	 "  --min-lines N        the smallest group worth a sub-header\n"
	 "  --max-share X        a group's users, at most this share of HEADER's (default 0.25)\n"
	 "  --similar X          a group ends where the users are less alike (default 0.5)\n"
	 "  --symbol NAME        only the group holding NAME\n"},
	{"report", cmd_report, "report [OPTIONS] [TREE] -o FILE  one HTML page: treemap, a page per header",
	 "  -o FILE, --output FILE  where the page goes\n"
	 "  --propose HEADER     also slim's and split's proposals for HEADER (repeatable)\n"
	 "  --kinds=K,...        the findings shown (as check)\n"},
	{"lex", cmd_lex, "lex  [OPTIONS] FILE...        the directives hdrslim sees in a file", ""},
	{"symbols", cmd_symbols, "symbols [OPTIONS] FILE...    what a file provides and uses (symbol facts)", ""},
	{"if-eval", cmd_if_eval, "if-eval [OPTIONS] EXPR...    how an #if expression evaluates (1, 0, unknown)", ""},
};

static const char config_help[] =
	"configuration (every command):\n"
	"  -I DIR -iquote DIR -isystem DIR -idirafter DIR -include FILE -DNAME[=V] -UNAME -nostdinc\n"
	"  --compdb FILE        compile_commands.json (default: TREE/compile_commands.json)\n"
	"  --kernel[=ARCH]      Linux kernel preset (auto-detected); --no-kernel turns it off\n"
	"  --build DIR          kernel build directory (make O=DIR): exact configuration;\n"
	"                       verify, fix, series, dead --apply: more than once\n"
	"  --exact | --union    force the mode (default: exact when a configuration is given)\n"
	"  -C DIR, --tree DIR   the tree (default: current directory)\n"
	"  --no-cache --clear-cache -j N, --jobs N --stats --show-config -q, --quiet --max-diags N\n"
	"  --progress | --no-progress  a progress line on stderr (default: when it is a terminal)\n";

/* hdrslim CMD --help, hdrslim help CMD. */
static void command_help(size_t i)
{
	printf("usage: hdrslim %s\n", commands[i].summary);
	if (commands[i].options[0])
		printf("\noptions:\n%s", commands[i].options);
	printf("\n%s", config_help);
}

static void help(FILE *out)
{
	fprintf(out, "usage: hdrslim COMMAND [OPTIONS] ...\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  hdrslim %s\n", commands[i].summary);
	fprintf(out, "\n%s", config_help);
	fprintf(out, "\n'hdrslim help COMMAND' (or COMMAND --help) lists its options; 'man hdrslim' says more.\n"
		     "\nexit status: 0 ok, 1 problems found in the analysed code, 2 cannot run\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		help(stderr);
		return EXIT_FATAL;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		for (size_t i = 0; argc > 2 && i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name)) {
				command_help(i);
				return EXIT_OK;
			}
		if (argc > 2) {
			fprintf(stderr, "hdrslim: '%s' is not a command (see 'hdrslim --help')\n", argv[2]);
			return EXIT_FATAL;
		}
		help(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("hdrslim %s\n", HDRSLIM_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(cmd, commands[i].name))
			continue;
		for (int a = 2; a < argc; a++)
			if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
				command_help(i);
				return EXIT_OK;
			}
		return commands[i].fn(argc - 2, argv + 2);
	}
	fprintf(stderr, "hdrslim: '%s' is not a command (see 'hdrslim --help')\n", cmd);
	return EXIT_FATAL;
}
