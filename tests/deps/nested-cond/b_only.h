/* b_only.h */
