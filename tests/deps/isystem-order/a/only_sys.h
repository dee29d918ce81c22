/* a/only_sys.h */
