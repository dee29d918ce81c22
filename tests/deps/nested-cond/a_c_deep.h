/* a_c_deep.h */
