#ifdef EMIT
EMIT(foo_events)
#endif
