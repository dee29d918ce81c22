/* yes_mq.h */
