/* probe_q.h: probed, never included */
