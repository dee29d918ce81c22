/* nospace_angle.h */
