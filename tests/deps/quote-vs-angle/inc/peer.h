/* inc/peer.h: quote include relative to inc/other.h */
