/* after/q.h: "q.h" reaches -idirafter too */
