/*
 * include/linux/cpumask.h - hdrslim example tree.
 *
 * Fixed-size CPU bitmaps.  struct task_struct embeds one by value, so
 * <linux/sched.h> needs the full definition from here.
 */
#ifndef _LINUX_CPUMASK_H
#define _LINUX_CPUMASK_H

#include <linux/types.h>

#define NR_CPUS			64
#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)

typedef struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
} cpumask_t;

#define cpumask_bits(maskp)	((maskp)->bits)

extern int nr_cpu_ids;
extern const struct cpumask *const cpu_possible_mask;
extern const struct cpumask *const cpu_online_mask;

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *cpumask)
{
	return (cpumask_bits(cpumask)[cpu / BITS_PER_LONG] >>
		(cpu % BITS_PER_LONG)) & 1;
}

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *dstp)
{
	cpumask_bits(dstp)[cpu / BITS_PER_LONG] |= 1UL << (cpu % BITS_PER_LONG);
}

static inline void cpumask_clear_cpu(int cpu, struct cpumask *dstp)
{
	cpumask_bits(dstp)[cpu / BITS_PER_LONG] &= ~(1UL << (cpu % BITS_PER_LONG));
}

static inline void cpumask_copy(struct cpumask *dstp,
				const struct cpumask *srcp)
{
	*dstp = *srcp;
}

extern bool cpumask_and(struct cpumask *dstp, const struct cpumask *src1p,
			const struct cpumask *src2p);
extern bool cpumask_intersects(const struct cpumask *src1p,
			       const struct cpumask *src2p);
extern unsigned int cpumask_weight(const struct cpumask *srcp);
extern unsigned int cpumask_first(const struct cpumask *srcp);
extern int cpumask_next(int n, const struct cpumask *srcp);

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = -1;						\
	     (cpu) = cpumask_next((cpu), (mask)), (cpu) < nr_cpu_ids;)

#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)

#endif /* _LINUX_CPUMASK_H */
