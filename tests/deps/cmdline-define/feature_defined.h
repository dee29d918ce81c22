/* feature_defined.h */
