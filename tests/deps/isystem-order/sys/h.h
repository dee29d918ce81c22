/* sys/h.h: shadowed by inc/h.h */
