/*
 * include/linux/mm_types.h - hdrslim example tree.
 *
 * The address-space descriptor.  Code that looks inside an mm_struct
 * includes this header itself.
 */
#ifndef _LINUX_MM_TYPES_H
#define _LINUX_MM_TYPES_H

#include <linux/types.h>

struct mm_struct {
	unsigned long		mmap_base;
	unsigned long		task_size;
	unsigned long		highest_vm_end;

	atomic_t		mm_users;
	atomic_t		mm_count;
	int			map_count;

	unsigned long		total_vm;
	unsigned long		locked_vm;
	unsigned long		stack_vm;

	unsigned long		start_code, end_code, start_data, end_data;
	unsigned long		start_brk, brk, start_stack;
	unsigned long		arg_start, arg_end, env_start, env_end;

	unsigned long		flags;
	struct task_struct	*owner;
};

#endif /* _LINUX_MM_TYPES_H */
