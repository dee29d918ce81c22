/* rec_done.h */
