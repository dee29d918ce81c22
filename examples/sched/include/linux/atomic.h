/*
 * include/linux/atomic.h - hdrslim example tree.
 *
 * Atomic operations on atomic_t (the type itself is in <linux/types.h>).
 * Heavy, as the kernel's atomics headers are (thousands of lines there):
 * <linux/sched.h> includes it only for the two task reference-count
 * helpers at its end, and <linux/nsproxy.h> for its own counter.
 */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H

#include <linux/types.h>

#define ATOMIC_INIT(i)		{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_set(atomic_t *v, int i)
{
	v->counter = i;
}

static inline void atomic_add(int i, atomic_t *v)
{
	v->counter += i;
}

static inline void atomic_sub(int i, atomic_t *v)
{
	v->counter -= i;
}

static inline void atomic_inc(atomic_t *v)
{
	v->counter++;
}

static inline void atomic_dec(atomic_t *v)
{
	v->counter--;
}

static inline int atomic_add_return(int i, atomic_t *v)
{
	v->counter += i;
	return v->counter;
}

static inline int atomic_sub_return(int i, atomic_t *v)
{
	v->counter -= i;
	return v->counter;
}

static inline bool atomic_dec_and_test(atomic_t *v)
{
	v->counter--;
	return v->counter == 0;
}

static inline bool atomic_inc_and_test(atomic_t *v)
{
	v->counter++;
	return v->counter == 0;
}

static inline int atomic_xchg(atomic_t *v, int new)
{
	int old = v->counter;

	v->counter = new;
	return old;
}

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	int ret = v->counter;

	if (ret == old)
		v->counter = new;
	return ret;
}

static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = v->counter;

	if (c == u)
		return false;
	v->counter = c + a;
	return true;
}

/*
 * atomic_long_t and its operations, on atomic64_t.
 */
typedef atomic64_t atomic_long_t;

#define ATOMIC_LONG_INIT(i)	{ (i) }

static inline long atomic_long_read(const atomic_long_t *v)
{
	return v->counter;
}

static inline void atomic_long_set(atomic_long_t *v, long i)
{
	v->counter = i;
}

static inline void atomic_long_add(long i, atomic_long_t *v)
{
	v->counter += i;
}

static inline void atomic_long_sub(long i, atomic_long_t *v)
{
	v->counter -= i;
}

static inline long atomic_long_add_return(long i, atomic_long_t *v)
{
	v->counter += i;
	return v->counter;
}

static inline long atomic_long_sub_return(long i, atomic_long_t *v)
{
	v->counter -= i;
	return v->counter;
}

#endif /* _LINUX_ATOMIC_H */
