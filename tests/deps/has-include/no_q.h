/* no_q.h */
