#!/bin/bash
# t6-kernel-preset.sh: the kernel preset on a miniature kernel tree:
# auto-detection, Kbuild's include dirs and forced includes, per-arch dirs
# for files under arch/A/, the asm-generic fallback, ccflags-y and
# CFLAGS_x.o -I additions, and tools/ kept out of the file set.

. "$(dirname "$0")/lib.sh"

mkkernel () {
	mkdir -p k && cd k
	touch Kbuild Kconfig
	mkdir -p include/linux include/uapi/linux include/asm-generic arch/x86/include/asm \
		arch/x86/include/uapi/asm arch/arm/include/asm kernel drivers/foo/include tools/perf \
		arch/x86/mm
	printf '#define __ARG_PLACEHOLDER_1 0,\n' >include/linux/kconfig.h
	: >include/linux/compiler-version.h
	: >include/linux/compiler_types.h
	printf '#ifndef _LINUX_TYPES_H\n#define _LINUX_TYPES_H\n#include <asm/types.h>\n#include <uapi/linux/types.h>\n#endif\n' >include/linux/types.h
	: >include/uapi/linux/types.h
	printf '#include <asm-generic/types.h>\n' >arch/x86/include/uapi/asm/types.h
	: >include/asm-generic/types.h
	: >include/asm-generic/barrier.h
	: >arch/x86/include/asm/bar.h
	: >arch/arm/include/asm/bar.h
	printf '#include <linux/types.h>\n#include <asm/bar.h>\n#ifdef __KERNEL__\n#include <asm/barrier.h>\n#endif\n' >kernel/a.c
	printf '#include <asm/bar.h>\n' >arch/arm/a.c
	printf 'ccflags-y += -I$(srctree)/drivers/foo/include\n' >drivers/foo/Makefile
	: >drivers/foo/include/foo_priv.h
	printf '#include <foo_priv.h>\n' >drivers/foo/a.c
	printf 'CFLAGS_fault.o := -I $(src)/../include/asm/trace\n' >arch/x86/mm/Makefile
	mkdir -p arch/x86/include/asm/trace
	: >arch/x86/include/asm/trace/exceptions.h
	printf '#include "exceptions.h"\n' >arch/x86/mm/fault.c
	printf '#include "exceptions.h"\n' >arch/x86/mm/other.c
	printf 'int main(void) { return 0; }\n' >tools/perf/perf.c
	cd ..
}

test_expect_success 'auto-detected: kconfig.h and friends are forced, -D__KERNEL__ known' '
	mkkernel
	(cd k && hdrslim deps kernel/a.c) >out
	head -n 3 out >got
	printf "include/linux/compiler-version.h\ninclude/linux/kconfig.h\ninclude/linux/compiler_types.h\n" >want
	test_cmp want got
	grep -q "^include/asm-generic/barrier.h$" out
'

test_expect_success 'x86 dirs for generic files, arm dirs under arch/arm/' '
	mkkernel
	(cd k && hdrslim deps kernel/a.c) >out
	grep -q "^arch/x86/include/asm/bar.h$" out
	grep -q "^arch/x86/include/uapi/asm/types.h$" out
	(cd k && hdrslim deps arch/arm/a.c) >out
	grep -q "^arch/arm/include/asm/bar.h$" out
	! grep -q "x86" out
'

test_expect_success 'same headers as gcc with the Kbuild flags (exact mode)' '
	mkkernel
	cd k
	hdrslim deps --exact kernel/a.c | sort >../got
	gcc -M -nostdinc -I arch/x86/include -I include -I arch/x86/include/uapi -I include/uapi \
		-include include/linux/compiler-version.h -include include/linux/kconfig.h \
		-include include/linux/compiler_types.h -D__KERNEL__ -I kernel kernel/a.c -MG |
		make_rule_deps | sed -e "s#^asm/barrier.h#include/asm-generic/barrier.h#" | sort >../want
	cd .. && test_cmp want got
'

test_expect_success 'ccflags-y and CFLAGS_x.o -I additions' '
	mkkernel
	(cd k && hdrslim deps drivers/foo/a.c) >out
	grep -q "^drivers/foo/include/foo_priv.h$" out
	(cd k && hdrslim deps arch/x86/mm/fault.c) >out
	grep -q "^arch/x86/include/asm/trace/exceptions.h$" out
	(cd k && hdrslim deps -q arch/x86/mm/other.c) >out
	! grep -q "exceptions.h" out
'

test_expect_success 'cost: tools/ is not in the file set; --no-kernel turns the preset off' '
	mkkernel
	hdrslim cost --json --no-cache k >out.json
	grep -q "\"tus\": 5," out.json
	hdrslim cost --json --no-cache --no-kernel -nostdinc k >out2.json
	grep -q "\"tus\": 6," out2.json
'

test_done
