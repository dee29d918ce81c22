/* a_only.h */
