/* after.h: after the missing ones */
