/* use_gnu.h: chosen by macros from system headers */
