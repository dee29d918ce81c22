/*
 * text_ident.c — text.h's wide scans against their byte-at-a-time
 * definitions: text_ident_end (sixteen bytes at a time) must stop exactly
 * where a loop over text_ident_char stops, for every byte value in every
 * lane of a block and for random runs of identifier-like text.  Built
 * and run by t7-lex-ifeval.sh; exit 1 and one line per mismatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static const char *by_bytes(const char *p, const char *end)
{
	while (p < end && text_ident_char(*p))
		p++;
	return p;
}

static int check(const char *buf, size_t n, int *shown)
{
	const char *want = by_bytes(buf, buf + n), *got = text_ident_end(buf, buf + n);
	if (want == got)
		return 0;
	if ((*shown)++ < 10)
		printf("length %zu: stops at %td, bytes say %td\n", n, got - buf, want - buf);
	return 1;
}

int main(void)
{
	char buf[80];
	int bad = 0, shown = 0;
	for (int c = 0; c < 256; c++)
		for (int lane = 0; lane < 40; lane++) {
			memset(buf, 'q', sizeof(buf));
			buf[lane] = (char)c;
			bad += check(buf, 48, &shown);
		}
	const char pick[] = "azAZ09_$@[`{/:";
	srand(1);
	for (int i = 0; i < 200000; i++) {
		size_t n = (size_t)(rand() % 64);
		for (size_t k = 0; k < n; k++)
			buf[k] = rand() % 4 ? pick[rand() % (int)(sizeof(pick) - 1)] : (char)(rand() % 256);
		bad += check(buf, n, &shown);
	}
	return bad != 0;
}
