/* cmd_seen.h */
