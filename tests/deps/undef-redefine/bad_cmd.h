/* bad_cmd.h */
