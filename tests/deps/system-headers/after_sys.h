/* after_sys.h: chosen by macros from system headers */
