/* vec.h: typed growable arrays on the heap (malloc/free), for lists built incrementally. */
#ifndef UT_VEC_H
#define UT_VEC_H

#include <stddef.h>
#include <stdlib.h>

#define UT_VEC(T) struct { T *v; size_t n, cap; }

/* Ensures room for `want` elements of `elem` bytes; 0 or UT_ENOMEM. */
int ut_vec_reserve_(void **v, size_t *cap, size_t want, size_t elem);

#define ut_vec_reserve(vec, want) \
	ut_vec_reserve_((void **)&(vec)->v, &(vec)->cap, (want), sizeof(*(vec)->v))
/* Appends x; evaluates to 0 or UT_ENOMEM. */
#define ut_vec_push(vec, x) \
	(ut_vec_reserve((vec), (vec)->n + 1) ? -2 : ((vec)->v[(vec)->n++] = (x), 0))
#define ut_vec_free(vec) \
	do { free((vec)->v); (vec)->v = NULL; (vec)->n = (vec)->cap = 0; } while (0)

#endif
