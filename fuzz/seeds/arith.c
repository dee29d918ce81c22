#if (1 ? 2 : (1/0)) == 2 && 0x7fffffffffffffff + 0 > 0 && -1 < 0u == 0
#endif
#if LLONG_MIN / -1 || LLONG_MIN % -1 || 1 << 63 || -1 >> 70 || 1 << -1
#endif
#if 'a' == 97 && '\n' == 10 && '\x41' == 65 && '\377' && L'x' && u8"s"
#endif
#if 0b1011 == 11 && 017 == 15 && 10UL * 3LL == 30 && ~0ULL == UMAX
#endif
#if 08 || 1.0 || 1e5 || 0x || 1 +
#endif
#if (((((((((((1)))))))))))) && !!!!!1 && - - - -1 && COUNT() == 0 && COUNT(a, b) == 2
#endif
#if X == 0 && SELF == 1 && F(1) == 1 && REC(2) && AA
#endif
#if OPT(1) + OPT(1, 2) == 4 && FIRST(1, 2) && VA(1) && EXPAND(OBSTRUCT(1))
#endif
#elif defined X defined(Y) defined
#if __LINE__ > 0 && __COUNTER__ == 0 && __COUNTER__ == 1 && __INCLUDE_LEVEL__ && defined(__FILE__)
#endif
