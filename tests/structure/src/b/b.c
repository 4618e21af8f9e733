/* b.c: fixture: includes a/, closing the cycle a -> b -> a. */
#include "b/b.h"
#include "a/a.h"

int b_one(void)
{
	return a_one();
}
