#ifndef _ASM_SHARED_IO_H
#define _ASM_SHARED_IO_H

static inline void __outb(unsigned char value, unsigned short port)
{
	(void)value;
	(void)port;
}

static inline void __outw(unsigned short value, unsigned short port)
{
	(void)value;
	(void)port;
}

#define outb __outb
#define outw __outw

#endif
