/*
 * steps.h — what fix and series share: the options of a command that
 * edits the tree, and the one way a change lands.  A step writes its
 * Change, optionally has the compiler verify every TU it touches, and
 * becomes one git commit; when verification fails or the user interrupts,
 * the files are put back and the branch stays at the last good commit.
 */
#ifndef HDRSLIM_STEPS_H
#define HDRSLIM_STEPS_H

#include <signal.h>
#include <stdbool.h>

#include "apply.h"
#include "session.h"
#include "verify.h"

typedef struct {
	bool dry_run, allow_dirty, verify, squash;
	VerifyOpts vo;
	char *prefix;        /* commit subject prefix */
	char *branch;        /* make the commits on this new branch */
	char *format_patch;  /* also write the series as mails here */
} StepOpts;

/* Takes the editing options (--dry-run --allow-dirty --verify
 * --cc-wrapper CMD --timeout S --prefix P --branch B --format-patch DIR
 * --squash-per-file, each only when named in `allowed`) out of argv,
 * compacting it; returns the new argc.  -j stays for options_parse. */
int steps_take_options(StepOpts *so, int argc, char **argv, const char *cmd, const char *allowed);

void steps_free_options(StepOpts *so);

typedef struct {
	const char *cmd;
	Options *o;          /* for the verification sessions */
	const char *tree;
	char *top;           /* git work tree */
	StepOpts *so;
	char *start;         /* HEAD when the run began */
	int commits, verified_tus, failed;
	/* the last step's verification, per configuration: TUs, how many
	 * compiled and proven, wall seconds (for the run's output, not the
	 * commit); NULL when it was not verified */
	char *verify_times;
} Stepper;

/* Checks the tree (git work tree, clean unless --allow-dirty), makes the
 * branch, installs the SIGINT/SIGTERM handlers. */
void steps_begin(Stepper *st, const char *cmd, Options *o, const char *tree, StepOpts *so);
/* 0: committed; 1: failed verification (files put back; *why says which
 * TU and the compiler's first error); 2: could not write; 3: nothing to
 * commit.  msg is the commit message without the Verified: trailer. */
int steps_land(Stepper *st, Change *c, const char *msg, char **why);
/* True once SIGINT or SIGTERM arrived: stop at a step boundary. */
bool steps_interrupted(void);
/* git format-patch of the commits made, when --format-patch was given. */
void steps_end(Stepper *st);

#endif
