/* local.h: includer directory beats -iquote */
