/* after/x.h: only here */
