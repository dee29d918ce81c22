/* y.h: no include guard */
