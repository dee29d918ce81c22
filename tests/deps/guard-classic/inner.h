/* inner.h: unguarded, harmless */
