/* next_probe_a.h: must not appear, probe_a.h is only in inc, before d1 */
