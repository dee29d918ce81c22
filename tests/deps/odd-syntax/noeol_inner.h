/* noeol_inner.h */
