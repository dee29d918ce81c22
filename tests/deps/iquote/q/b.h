/* q/b.h: must NOT be found by <b.h> */
