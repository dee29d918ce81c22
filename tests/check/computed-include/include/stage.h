#undef EMIT
#define EMIT(name) extern int name;
