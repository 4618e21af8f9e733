/* minimize.h: the minimal suite that keeps coverage and dependencies (thesis 6.2.2), and
 * obsolete tests (thesis 5.3.5), from the stored graph, durations and coverage. */
#ifndef UT_MINIMIZE_H
#define UT_MINIMIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "minimize/coverage.h"
#include "minimize/solver.h"
#include "util/diag.h"

typedef struct {
	double time_limit_s;     /* for greedy and Z3 together; <= 0: none */
	const char *const *keep; /* test ids (or unique names) that must stay */
	size_t nkeep;
	bool no_z3;              /* greedy only (benchmarks and tests) */
} ut_minimize_opts;

typedef struct {
	size_t ntests;
	double *duration;     /* ntests: the cost used for each test, in seconds */
	bool *estimated;      /* ntests: no run measured it; duration is the fallback */
	double fallback_s;
	size_t nestimated;
	bool *kept;           /* ntests */
	bool *pinned;         /* ntests: named by opts.keep */
	bool *obsolete;       /* ntests: nothing depends on it and others cover all it covers */
	const char *method;   /* "z3" or "greedy" (static) */
	ut_solve_status status;
	bool stopped;         /* the time limit stopped Z3 */
	char *reason;         /* why Z3 did not prove the answer, or NULL */
	double lower_bound;   /* no valid suite costs less */
	double greedy_cost;   /* seconds: the greedy answer, beside the chosen one */
	double cost_before, cost_after; /* seconds: every test, the kept ones */
	size_t tests_after;
	size_t nrequired;     /* elements that must stay covered */
	size_t nuncoverable;  /* elements only flaky or failing tests cover: not required */
	double seconds;       /* solving time */
	uint32_t *cov_start;  /* elements + 1 offsets into cov_tests */
	uint32_t *cov_tests;  /* for each element, every test covering it, in original order */
} ut_minimize_result;

/*
 * Chooses the tests to keep: least total duration such that every element that a
 * non-flaky, non-failing test covers stays covered, every kept test keeps the dependees
 * of its manifest edges, and the pinned tests stay. The greedy answer first, then Z3 in
 * the time left; the greedy answer whenever Z3 gives none, or a cheaper one when the time
 * limit stopped Z3. Also marks obsolete
 * tests. *out belongs to the caller (ut_minimize_result_dispose) whatever the result.
 * UT_EINPUT when a kept name is no test of the graph; UT_ENOMEM.
 */
int ut_minimize_run(const ut_graph *g, const ut_coverage *cov, const double *duration,
		    const bool *estimated, double fallback_s, const ut_minimize_opts *opts,
		    ut_minimize_result *out);

void ut_minimize_result_dispose(ut_minimize_result *r);

/*
 * The coverage-driven filter of crawler-generated suites (thesis 6.2.1.1): sets
 * selected[g->ntests] to tests that together cover every element any test covers,
 * greedily by new elements per test, then without the ones others made redundant.
 * Dependencies are not considered: ut_detect_fix adds the preconditions a selected test
 * needs. 0 or UT_ENOMEM.
 */
int ut_minimize_select(const ut_graph *g, const ut_coverage *cov, bool *selected);

/* Whether the test counts for coverage (it passed reliably). */
bool ut_minimize_eligible(const ut_graph_test *t);

#endif
