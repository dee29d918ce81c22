/* after_line.h */
