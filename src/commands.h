/*
 * commands.h — the subcommands, one file each (cmd_<name>.c), dispatched
 * from the table in main.c.  Each returns the process exit status.
 */
#ifndef HDRSLIM_COMMANDS_H
#define HDRSLIM_COMMANDS_H

int cmd_deps(int argc, char **argv);
int cmd_cost(int argc, char **argv);
int cmd_why(int argc, char **argv);
int cmd_lex(int argc, char **argv);
int cmd_symbols(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_fix(int argc, char **argv);
int cmd_series(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_slim(int argc, char **argv);
int cmd_dead(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_measure(int argc, char **argv);
int cmd_if_eval(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
