/* no_mq.h */
