/* vec.c: growth policy of UT_VEC arrays. */
#include "util/vec.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/error.h"
#include "util/banned.h"

int ut_vec_reserve_(void **v, size_t *cap, size_t want, size_t elem)
{
	size_t ncap;
	void *p;

	if (want <= *cap)
		return 0;
	ncap = *cap ? *cap : 8;
	while (ncap < want)
		ncap *= 2;
	if (ncap > SIZE_MAX / elem)
		return UT_ENOMEM;
	p = realloc(*v, ncap * elem);
	if (!p)
		return UT_ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}
