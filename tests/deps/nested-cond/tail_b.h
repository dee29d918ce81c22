/* tail_b.h */
