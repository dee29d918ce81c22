/* inc/a.h: "a.h" when -iquote q is absent */
