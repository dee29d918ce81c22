/*
 * main.c — hdrslim's entry point: the subcommand table and top-level help.
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
} commands[] = {
	{"deps", cmd_deps, "deps [OPTIONS] FILE...        the headers a TU includes (the set gcc -M lists)"},
	{"cost", cmd_cost, "cost [OPTIONS] [TREE]         which headers cost the build most"},
	{"why", cmd_why, "why  [OPTIONS] FILE HEADER    every include chain from FILE to HEADER"},
	{"check", cmd_check, "check [OPTIONS] [TREE] [FILE...] unused, redundant, replaceable, missing includes"},
	{"fix", cmd_fix, "fix  [OPTIONS] [TREE] [FILE...] apply check's findings, one commit each"},
	{"verify", cmd_verify, "verify [OPTIONS] [TREE] [--since REV] compile what the changes since REV touch"},
	{"series", cmd_series, "series [OPTIONS] TREE PLAN    a cleanup plan as a bisectable series of commits"},
	{"measure", cmd_measure, "measure [OPTIONS] [TREE] REV1 REV2 lines and compile time a change saves"},
	{"dead", cmd_dead, "dead [OPTIONS] [TREE] [HEADER...] unused declarations, needless forward declarations, wrappers"},
	{"slim", cmd_slim, "slim [OPTIONS] TREE HEADER    where a header's weight comes from, and the cuts that remove it"},
	{"split", cmd_split, "split [OPTIONS] TREE HEADER    proposed sub-headers of a header, with savings"},
	{"lex", cmd_lex, "lex  [OPTIONS] FILE...        the directives hdrslim sees in a file"},
	{"symbols", cmd_symbols, "symbols [OPTIONS] FILE...    what a file provides and uses (symbol facts)"},
	{"if-eval", cmd_if_eval, "if-eval [OPTIONS] EXPR...    how an #if expression evaluates (1, 0, unknown)"},
};

static void help(FILE *out)
{
	fprintf(out, "usage: hdrslim COMMAND [OPTIONS] ...\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  hdrslim %s\n", commands[i].summary);
	fprintf(out,
		"\nconfiguration (every command):\n"
		"  -I DIR -iquote DIR -isystem DIR -idirafter DIR -include FILE -DNAME[=V] -UNAME -nostdinc\n"
		"  --compdb FILE        compile_commands.json (default: TREE/compile_commands.json)\n"
		"  --kernel[=ARCH]      Linux kernel preset (auto-detected); --no-kernel turns it off\n"
		"  --build DIR          kernel build directory (make O=DIR): exact configuration\n"
		"  --exact | --union    force the mode (default: exact when a configuration is given)\n"
		"  -C DIR, --tree DIR   the tree (default: current directory)\n"
		"  --no-cache --clear-cache -j N --stats --show-config -q --max-diags N\n"
		"\ncommand options:\n"
		"  deps: --make (make rules)  -MG (list missing headers as spelled)\n"
		"  cost: --sort METRIC  --top N  --json\n"
		"  why:  --max N\n"
		"  check: --json  --kinds=unused,replaceable,redundant,missing  --policy=minimal|strict\n"
		"         --mapping FILE (private -> public headers)  --decl-macro NAME[,NAME]\n"
		"  verify: --since REV (default HEAD)  --cc-wrapper CMD  --timeout S  --json\n"
		"  dead: --json  --kinds=dead,needless-forward,wrapper  --cocci DIR  --apply[=NAME,...]  --no-spatch\n"
		"        (--apply takes fix's --verify --dry-run --allow-dirty --prefix --branch ...)\n"
		"  measure: --sample N (gcc -E, default 5)  --repeat R  --top N  --json  --cc-wrapper CMD  --timeout S\n"
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
				printf("usage: hdrslim %s\n", commands[i].summary);
				return EXIT_OK;
			}
		return commands[i].fn(argc - 2, argv + 2);
	}
	fprintf(stderr, "hdrslim: '%s' is not a command (see 'hdrslim --help')\n", cmd);
	return EXIT_FATAL;
}
