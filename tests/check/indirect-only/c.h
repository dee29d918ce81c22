#ifndef C_H
#define C_H

typedef long c_t;

c_t c_fn(void);

#endif
