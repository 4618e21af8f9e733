/* a.h: fixture for tests/structure/run. */
int a_one(void);
