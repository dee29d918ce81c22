/* src/peer.h: must NOT be picked */
