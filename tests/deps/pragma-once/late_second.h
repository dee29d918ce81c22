/* late_second.h */
