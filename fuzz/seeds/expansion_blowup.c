#define A B B B B B B B B
#define B C C C C C C C C
#define C D D D D D D D D
#define D E E E E E E E E
#if A
#endif
#define P(x) x x x x
#if P(P(P(P(P(P(1))))))
#endif
#define L (
#if L L L L L 1
#endif
