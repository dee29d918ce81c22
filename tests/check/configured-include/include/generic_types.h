#ifndef GENERIC_TYPES_H
#define GENERIC_TYPES_H

typedef unsigned int kuid_t;

#ifndef old_uid_t
typedef kuid_t old_uid_t;
#endif

#endif
