/*
 * slim.h — the model behind `hdrslim slim`: one header preprocessed on
 * its own, as an include graph whose nodes weigh their lines (physical
 * lines, and the lines gcc -E -P prints for them when the compiler was
 * asked), and the plan search that edits that model step by step the way
 * `series` would edit the tree, until the header alone is under a budget.
 *
 * A plan is a list of series steps.  Each round takes the heaviest
 * headers of the current closure, finds for each the fewest #include
 * lines that must go (a minimum cut), and asks of every cut line what
 * its file uses from the far side:
 *   nothing                        drop the include
 *   tags through pointers only     declare them instead
 *   names in inline/macro bodies   split those definitions into a
 *                                  sub-header, then remove the back-include
 *   types by value, typedefs,      split them out of their provider into
 *   macros outside any body        a *_types.h it includes back; include
 *                                  only that (replace)
 * and anything else (a name tested in #if, a variable, a prototype's
 * function) leaves the candidate blocked, with the reason.  The candidate
 * that saves the most lines per commit wins the round (greedy); the
 * search stops at the target or when nothing saves a line.
 */
#ifndef HDRSLIM_SLIM_H
#define HDRSLIM_SLIM_H

#include <stdbool.h>
#include <stdint.h>

#include "carve.h"
#include "check.h"
#include "net.h"
#include "ppcount.h"
#include "session.h"

typedef struct {
	int file;          /* file id, -1 for a header a plan creates */
	char *rel;         /* path relative to the tree (absolute outside it) */
	bool editable;     /* inside the tree */
	int64_t lines;     /* physical lines, as the plan leaves them */
	int64_t pp;        /* gcc -E -P lines, as the plan leaves them */
	SpanVec gone;      /* lines moved out by plan steps (original numbers) */
	IntVec provides;   /* a created header: the name ids it provides */
	bool carved;       /* a plan step moved text out of it: check's findings no longer hold */
} SlimNode;

enum PlanKind { PK_SPLIT, PK_TYPES, PK_UNBACK, PK_DROP, PK_DECLARE, PK_REPLACE };

typedef struct {
	int kind;
	char *header;      /* the file edited (relative to the tree) */
	char *other;       /* split/types/unback: the new header; drop/declare/replace: the include as written */
	StrVec syms;       /* split/types: names moved; declare: the tags */
} PlanStep;

typedef struct {
	char *what;        /* "<linux/atomic.h> (12846 lines)" */
	VEC(PlanStep) steps;
	int64_t lines_after, pp_after;
	int headers_after;
} PlanRound;

typedef struct {
	Session *s;
	Check *ck;         /* unused, forward, redundant, replaceable findings */
	FindingVec findings; /* check's, on every file of the closure in the tree (one run) */
	TuGraph g;
	Net net;
	VEC(SlimNode) nodes;
	bool have_pp;
	PpCount pp;
	Interner *names;   /* tag names carry a \1 in front */
	VEC(IntVec) node_provides; /* by real node: name ids of its provides, by provide index */
	VEC(PlanRound) plan;
	VEC(char *) blocked; /* why the heaviest candidates could not be planned */
	int max_fallout;   /* a removal may add includes to at most this many files */
} SlimModel;

/* HEADER alone (the file id) as a model; pp, when the compiler counted
 * it, gives each node its gcc lines. */
void slim_open(SlimModel *m, Session *s, int header, PpCount *pp);
void slim_close(SlimModel *m);
/* Lines (physical, or gcc's with pp) and headers of the closure reached
 * over alive edges without the edges in `without` (may be NULL). */
void slim_measure(SlimModel *m, const IntVec *without, int64_t *lines, int64_t *pp, int *headers);
/* What each node brings: the lines (gcc's when pp) that leave with it. */
void slim_brings(SlimModel *m, bool pp, int64_t *brings);
/* By name id: 1 when a node of the near side (stays) provides it, 2 the
 * far side, 3 both; over the nodes reached.  A tag's definitions are
 * also in bits 4 (near) and 8 (far).  malloc'd. */
uint8_t *slim_name_sides(SlimModel *m, const char *stays, const char *reached);
/* The side (1, 2, 3; 0 none) a use with these flags is satisfied from:
 * a tag used by value, or through a pointer that is dereferenced, only
 * by definitions. */
static inline int slim_side(const uint8_t *side, int id, int use_flags)
{
	bool def = (use_flags & UF_TAG) && (use_flags & UF_COMPLETE);
	return def ? (side[id] >> 2) & 3 : side[id] & 3;
}
/* The name id of a use in sy (a tag's with its \1), -1 when no node
 * provides that name. */
int slim_use_id(SlimModel *m, const Symbols *sy, const SymEntry *u);
/* Plans rounds until the header alone is at most target lines (gcc's
 * when the model has them, else physical), at most max_rounds. */
void slim_plan(SlimModel *m, int64_t target, int max_rounds, int max_fallout);
/* The plan in `series` syntax, one comment per round with its
 * predictions. */
void slim_plan_text(SlimModel *m, StrBuf *out);

#endif
