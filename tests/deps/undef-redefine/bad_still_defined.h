/* bad_still_defined.h */
