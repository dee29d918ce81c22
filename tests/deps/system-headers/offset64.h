/* offset64.h: chosen by macros from system headers */
