/* feature_gt1.h */
