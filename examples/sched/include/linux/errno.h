/*
 * include/linux/errno.h - hdrslim example tree.
 *
 * The handful of error codes the example .c files return.
 */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H

#define EPERM		 1	/* Operation not permitted */
#define ESRCH		 3	/* No such process */
#define EAGAIN		11	/* Try again */
#define ENOMEM		12	/* Out of memory */
#define EBUSY		16	/* Device or resource busy */
#define EINVAL		22	/* Invalid argument */

#endif /* _LINUX_ERRNO_H */
