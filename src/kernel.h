/*
 * kernel.h — the Linux kernel preset.
 *
 * Kbuild compiles every C file with the same include dirs, forced
 * includes and -D__KERNEL__ (see any .o.cmd file), plus per-directory
 * -I additions; this module writes those as flag sets.  A file under
 * arch/A/ gets arch A's dirs, every other file the chosen ARCH's (x86 by
 * default), so the whole tree is one picture.  Without a build directory
 * there are no generated asm wrappers, so <asm/x.h> that has no arch file
 * falls back to include/asm-generic/x.h as Kbuild's generic-y makes it.
 */
#ifndef HDRSLIM_KERNEL_H
#define HDRSLIM_KERNEL_H

#include <stdbool.h>

#include "config.h"

typedef struct Kernel Kernel;

/* A kernel source tree: Kbuild, Kconfig, include/linux/kconfig.h, arch/. */
bool kernel_detect(const char *root_abs);

/* Kbuild: BUILD/dir/.name.o.cmd holds `savedcmd_dir/name.o := CMD`, a
 * shell command run in BUILD (older kernels wrote `cmd_`), and the
 * dependency list fixdep made; NULL for a source that is not a .c. */
char *kernel_cmd_file(const char *build, const char *rel_source);

/* Whether the configuration compiles this .c (tree-relative): its
 * object's .cmd file is in the build directory.  True without --build. */
bool kernel_builds(const Kernel *k, const char *rel_source);

/* The architecture a Kbuild output directory's .config was made for (the
 * comment Kbuild writes in its head: "# Linux/arm64 6.12.57 Kernel
 * Configuration"), or NULL; the caller frees it. */
char *kernel_build_arch(const char *build);

/* arch: NULL for the build directory's (else x86); build_abs: NULL
 * without --build. */
Kernel *kernel_new(Config *cfg, const char *root_abs, const char *arch, const char *build_abs,
		   const FlagSet *extra);
void kernel_free(Kernel *k);

/* Context for a file (by key). */
int kernel_ctx_for(Kernel *k, int key);

/* Directories kept out of the kernel's file set: userspace programs. */
extern const char *const kernel_excludes[];

#endif
