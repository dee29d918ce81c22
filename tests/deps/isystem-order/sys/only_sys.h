/* sys/only_sys.h */
