/* yes1.h */
