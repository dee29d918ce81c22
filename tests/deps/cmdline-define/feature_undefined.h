/* feature_undefined.h */
