/* src/sub/d.h */
