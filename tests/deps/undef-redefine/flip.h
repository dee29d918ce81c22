/* flip.h */
#undef FROM_MAIN
#define FROM_HDR 5
