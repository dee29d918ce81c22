/* iec559.h */
