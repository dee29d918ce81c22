/* inc/probe_a.h: probed, never included */
