/*
 * incpath.h — include resolution, exactly as GCC does it.
 *
 * "x.h" is looked up in the includer's directory, then along the whole
 * chain; <x.h> starts at the first non-quote directory; #include_next
 * starts just after the directory where the includer itself was found.
 * Chain lookups are memoised per (chain, start, name): a kernel TU asks
 * for <linux/types.h> hundreds of times, the file table is probed once.
 */
#ifndef HDRSLIM_INCPATH_H
#define HDRSLIM_INCPATH_H

#include <stdbool.h>

#include "config.h"

enum {
	FOUND_INCLUDER_DIR = -1, /* found next to the includer */
	FOUND_DIRECT = -2,       /* absolute name, -include, or a TU itself */
	FOUND_GENERIC = -3,      /* kernel asm-generic fallback */
};

typedef struct {
	int file;     /* file id, -1 when not found */
	int found_at; /* chain index, or one of FOUND_* */
} Resolved;

typedef struct IncPath IncPath;

IncPath *incpath_new(Config *cfg);
void incpath_free(IncPath *ip);

Resolved incpath_resolve(IncPath *ip, int chain, int includer, int includer_found_at,
			 const char *name, bool angled, bool next);

/* Searches only dirs [start, end) of a chain (memoised): what a chain's
 * own extra directories add to its base. */
Resolved incpath_search_dirs(IncPath *ip, int chain, int start, int end, const char *name);

/* A -include file: relative to the working directory first, then like
 * #include "name" from the primary file's directory and the chain. */
Resolved incpath_forced(IncPath *ip, int chain, int key);

/* GCC's implicit <stdc-predef.h>, found along the angle chain. */
Resolved incpath_stdc_predef(IncPath *ip, int chain);

#endif
