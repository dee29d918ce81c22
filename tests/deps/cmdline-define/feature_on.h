/* feature_on.h */
