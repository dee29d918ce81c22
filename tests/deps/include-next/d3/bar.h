/* d3/bar.h */
