/* two.c: fixture: calls a_one of long.c, which calls a_two. */
#include "a/a.h"

int a_two(void)
{
	/* a_one( in a comment is no call */
	return a_one() + 1;
}

static int
small(int (*f)(void))
{
	return f();
}
