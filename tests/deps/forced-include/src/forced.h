/* src/forced.h: must NOT be picked by -include forced.h */
