/* a_or_b.h */
