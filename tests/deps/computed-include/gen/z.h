/* gen/z.h */
