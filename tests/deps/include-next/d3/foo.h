/* d3/foo.h: end of the chain */
