/* b.h: fixture for tests/structure/run. */
int b_one(void);
