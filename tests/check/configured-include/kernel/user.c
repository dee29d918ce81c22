#include <arch_types.h>

old_uid_t user_old_uid(kuid_t uid)
{
	return (old_uid_t)uid;
}
