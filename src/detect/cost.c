/* cost.c: the seconds a run is expected to take, learnt from the durations the runs
 * report: one place for the dispatch's longest-first order (exec.c) and the search's
 * choice between probes (search.c). A failing test is priced apart from a passing one: on
 * a real application it waits for what never appears (an implicit wait runs out) and
 * costs several times as much. */
#include "detect/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

int dx_cost_init(dx_cost *k, size_t n)
{
	memset(k, 0, sizeof(*k));
	n = n ? n : 1;
	k->pass_s = calloc(n, sizeof(*k->pass_s));
	k->fail_s = calloc(n, sizeof(*k->fail_s));
	k->npass = calloc(n, sizeof(*k->npass));
	k->nfail = calloc(n, sizeof(*k->nfail));
	if (!k->pass_s || !k->fail_s || !k->npass || !k->nfail)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

void dx_cost_dispose(dx_cost *k)
{
	free(k->pass_s);
	free(k->fail_s);
	free(k->npass);
	free(k->nfail);
	memset(k, 0, sizeof(*k));
}

void dx_cost_learn(dx_cost *k, const uint32_t *sched, size_t n, const dx_result *r)
{
	double tests = 0;

	if (r->error || !r->outcomes)
		return;
	for (size_t i = 0; i < n; i++) {
		double d = r->durations[i];

		if (d < 0)
			continue;
		tests += d;
		if (r->outcomes[i] == UT_OUT_PASS) {
			k->pass_s[sched[i]] += d;
			k->npass[sched[i]]++;
			k->all_pass_s += d;
			k->all_npass++;
		} else if (r->outcomes[i] == UT_OUT_FAIL || r->outcomes[i] == UT_OUT_ERROR) {
			k->fail_s[sched[i]] += d;
			k->nfail[sched[i]]++;
			k->all_fail_s += d;
			k->all_nfail++;
		}
	}
	/* what the run took besides its tests: the reset, the runner's start, the browser */
	if (r->wall_s > tests) {
		k->overhead_s += r->wall_s - tests;
		k->nruns++;
	}
}

/* A passing test's seconds: its own mean, else the suite's, else 1. */
static double pass_cost(const dx_cost *k, uint32_t t)
{
	if (k->npass[t])
		return k->pass_s[t] / k->npass[t];
	return k->all_npass ? k->all_pass_s / (double)k->all_npass : 1.0;
}

double dx_cost_test(const dx_cost *k, uint32_t t, bool passes)
{
	if (passes)
		return pass_cost(k, t);
	if (k->nfail[t])
		return k->fail_s[t] / k->nfail[t];
	/* never seen failing: its passing seconds, scaled as the suite's failures are */
	if (k->all_nfail && k->all_npass && k->all_pass_s > 0)
		return pass_cost(k, t) * (k->all_fail_s / (double)k->all_nfail) /
		       (k->all_pass_s / (double)k->all_npass);
	return pass_cost(k, t);
}

double dx_cost_sched(const dx_cost *k, const uint32_t *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += pass_cost(k, v[i]);
	return s;
}

double dx_cost_overhead(const dx_cost *k)
{
	return k->nruns ? k->overhead_s / (double)k->nruns : 0;
}
