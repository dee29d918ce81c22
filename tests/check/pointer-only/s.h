#ifndef S_H
#define S_H

struct S {
	int x;
};

int s_get(const struct S *s);

#endif
