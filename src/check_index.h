/*
 * check_index.h — the symbol index (check_index.c): names by id, each
 * name's provides, each file's uses, and the tree's include edges.
 */
#ifndef HDRSLIM_CHECK_INDEX_H
#define HDRSLIM_CHECK_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check_impl.h"

/* The interned text of a name: "struct NAME" for a tag (buf holds it);
 * (size_t)-1 for a tag name too long to intern. */
size_t provide_text(const char *s, size_t n, bool tag, char *buf, size_t cap, const char **out);
/* A name's interner id (add: interned when new), -1 when it has none. */
int name_id(Interner *in, const char *s, size_t n, bool tag, bool add);
/* The parts of file some configurations do not compile (union mode;
 * read in the file's own context), as graph_file_unknown gives them. */
int unknown_ranges(Check *ck, int file, const uint32_t **rg);
/* Whether line lies in one of the n ranges of unknown_ranges. */
bool in_ranges(const uint32_t *rg, int n, uint32_t line);
/* The index over every file with facts (reading their symbol facts
 * first): the Check fields from names to seed_file, is_c and uses. */
void build_index(Check *ck);
/* The tree's include edges both ways (rev_off, fwd_off), once. */
void build_rev(Check *ck);
/* The seeds by file, for the roots' seed tables. */
void index_file_seeds(Check *ck);

/* The index built on a thread of its own while the graph is: started
 * once the units are lexed, finished once the graph is prepared. */
typedef struct IndexAhead IndexAhead;
IndexAhead *index_ahead_start(Session *s);
/* Joins the indexing thread and hands its results over: each file's
 * symbol facts to the table, the index to check_new (which uses it when
 * it holds exactly the file set's files with symbols, see
 * adopt_prepared).  Frees a. */
void index_ahead_finish(Session *s, IndexAhead *a);

#endif
