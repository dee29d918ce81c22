/* yes_q.h */
