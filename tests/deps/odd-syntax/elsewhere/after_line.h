/* elsewhere/after_line.h: must NOT be picked */
