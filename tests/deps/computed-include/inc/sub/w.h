/* inc/sub/w.h */
