/* select.c: the coverage-driven filter of crawler-generated suites (thesis 6.2.1.1):
 * few tests that reach the coverage of the whole suite, chosen greedily before anything
 * is validated. */
#include "minimize/minimize.h"

#include <stdlib.h>
#include <string.h>

#include "minimize/internal.h"
#include "util/error.h"
#include "util/banned.h"

int ut_minimize_select(const ut_graph *g, const ut_coverage *cov, bool *selected)
{
	ut_solver_problem p;
	ut_solver_result r;
	uint32_t *start = NULL, *tests = NULL;
	size_t e, t;
	int rc;

	memset(&r, 0, sizeof(r));
	memset(selected, 0, g->ntests * sizeof(*selected));
	rc = ut_solver_problem_init(&p, g->ntests);
	if (rc < 0)
		return rc;
	if (ut_coverage_invert(cov, &start, &tests) < 0) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	/* Unit costs: the thesis adds the test covering most new elements, as nothing has
	 * run yet to say how long a test takes. */
	for (t = 0; t < g->ntests; t++)
		p.cost[t] = 1.0;
	for (e = 0; rc == 0 && e < cov->elements.n; e++)
		if (start[e + 1] > start[e])
			rc = ut_solver_add_clause(&p, tests + start[e], start[e + 1] - start[e]);
	if (rc == 0)
		rc = ut_solver_greedy(&p, &r);
	if (rc < 0)
		goto done;
	memcpy(selected, r.chosen, g->ntests * sizeof(*selected));
done:
	free(start);
	free(tests);
	ut_solver_result_dispose(&r);
	ut_solver_problem_dispose(&p);
	return rc;
}
