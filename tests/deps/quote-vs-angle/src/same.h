/* src/same.h: found by quote include from src/main.c */
