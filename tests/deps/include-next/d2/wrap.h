/* d2/wrap.h */
