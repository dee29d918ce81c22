/* no_dir.h */
