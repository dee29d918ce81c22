/* q/local.h: must NOT be picked */
