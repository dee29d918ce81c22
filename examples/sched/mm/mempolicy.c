/*
 * mm/mempolicy.c - hdrslim example tree.
 *
 * NUMA memory policies: picks the node to allocate from, falling back to
 * the node of the CPU a task runs on.
 */
#include <linux/types.h>
#include <linux/topology.h>
#include <linux/mm_types.h>
#include <linux/sched.h>

enum {
	MPOL_DEFAULT,
	MPOL_PREFERRED,
	MPOL_BIND,
	MPOL_INTERLEAVE,
	MPOL_LOCAL,
	MPOL_MAX,
};

struct mempolicy {
	unsigned short	mode;
	unsigned short	flags;
	int		preferred_node;
};

static struct mempolicy default_policy = {
	.mode		= MPOL_LOCAL,
	.preferred_node	= NUMA_NO_NODE,
};

static int mm_home_node(struct mm_struct *mm)
{
	if (mm->owner)
		return task_node(mm->owner);
	return numa_node_id();
}

int policy_node(struct task_struct *p, struct mempolicy *pol)
{
	if (!pol)
		pol = &default_policy;

	if (pol->mode == MPOL_PREFERRED && pol->preferred_node != NUMA_NO_NODE)
		return pol->preferred_node;

	if (p->mm)
		return mm_home_node(p->mm);
	return task_node(p);
}

bool mpol_misplaced(struct task_struct *p, int page_nid)
{
	return page_nid != task_node(p);
}
