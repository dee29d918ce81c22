/* q/a.h: "a.h" via -iquote */
