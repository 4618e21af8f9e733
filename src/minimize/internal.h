/* internal.h: what the minimize stage's files share and nothing else uses. */
#ifndef UT_MINIMIZE_INTERNAL_H
#define UT_MINIMIZE_INTERNAL_H

#include "minimize/coverage.h"
#include "minimize/solver.h"

/* Compressed lists of a problem: for each variable, the clauses it is in and the
 * variables it implies. Heap arrays; ut_solver_index_dispose frees them. */
typedef struct {
	uint32_t *cl_start, *cl;   /* variable -> clauses */
	uint32_t *imp_start, *imp; /* variable -> variables it implies */
} ut_solver_index;

/* 0 or UT_ENOMEM (no message set). */
int ut_solver_index_build(ut_solver_index *x, const ut_solver_problem *p);
void ut_solver_index_dispose(ut_solver_index *x);

/* Chooses v and everything it implies; calls on_new (when not NULL) for each newly
 * chosen variable. stack has room for nvars entries. */
void ut_solver_choose_closed(const ut_solver_index *x, bool *chosen, uint32_t *stack,
			     uint32_t v, void (*on_new)(uint32_t v, void *ctx), void *ctx);
/* Chooses what every solution shares: pins, members of one-member clauses, and what
 * they imply. */
void ut_solver_choose_forced(const ut_solver_problem *p, const ut_solver_index *x,
			     bool *chosen, uint32_t *stack,
			     void (*on_new)(uint32_t v, void *ctx), void *ctx);
/* Element -> the tests covering it, in original order: start[elements + 1] offsets into
 * tests. Heap arrays, the caller's even on failure. 0 or UT_ENOMEM (no message set). */
int ut_coverage_invert(const ut_coverage *cov, uint32_t **start, uint32_t **tests);
/* Whether a solution of this cost meets the lower bound (within rounding). */
bool ut_solver_proven(double objective, double lower_bound);

#endif
