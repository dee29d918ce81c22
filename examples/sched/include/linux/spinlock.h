/*
 * include/linux/spinlock.h - hdrslim example tree.
 *
 * Spinlock types and the lock/unlock API.  struct task_struct embeds a
 * spinlock_t and a raw_spinlock_t.
 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

#include <linux/types.h>

typedef struct raw_spinlock {
	volatile u32 slock;
} raw_spinlock_t;

typedef struct spinlock {
	struct raw_spinlock rlock;
} spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(lockname)	{ .slock = 0 }
#define __SPIN_LOCK_UNLOCKED(lockname) \
	{ .rlock = __RAW_SPIN_LOCK_UNLOCKED(lockname) }

#define DEFINE_RAW_SPINLOCK(x)	raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

extern void raw_spin_lock(raw_spinlock_t *lock);
extern void raw_spin_unlock(raw_spinlock_t *lock);
extern unsigned long _raw_spin_lock_irqsave(raw_spinlock_t *lock);
extern void raw_spin_unlock_irqrestore(raw_spinlock_t *lock,
				       unsigned long flags);

#define raw_spin_lock_irqsave(lock, flags)			\
	do {							\
		flags = _raw_spin_lock_irqsave(lock);		\
	} while (0)

extern void spin_lock(spinlock_t *lock);
extern void spin_unlock(spinlock_t *lock);
extern void spin_lock_irq(spinlock_t *lock);
extern void spin_unlock_irq(spinlock_t *lock);
extern int spin_trylock(spinlock_t *lock);

#endif /* _LINUX_SPINLOCK_H */
