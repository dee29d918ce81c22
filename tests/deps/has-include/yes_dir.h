/* yes_dir.h */
