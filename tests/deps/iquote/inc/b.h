/* inc/b.h: <b.h> via -I */
