/* inc/cfg.h */
#define CFG_LEVEL 2
