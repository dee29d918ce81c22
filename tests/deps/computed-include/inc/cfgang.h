/* inc/cfgang.h */
