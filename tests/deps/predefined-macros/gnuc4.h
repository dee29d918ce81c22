/* gnuc4.h */
