/* bar_stub.h */
