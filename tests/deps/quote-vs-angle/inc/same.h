/* inc/same.h: found by angle include via -I inc */
