/* tally.c: a run's outcomes counted the way `untangle run` reports them to a CI job. */
#include "runner/tally.h"

#include <string.h>

#include "util/banned.h"

bool ut_outcome_fails_job(ut_outcome o)
{
	return o == UT_OUT_FAIL || o == UT_OUT_ERROR || o == UT_OUT_NOTRUN;
}

void ut_run_tally_count(ut_run_tally *out, const ut_run_result *res)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < res->n; i++) {
		switch (res->tests[i].outcome) {
		case UT_OUT_PASS: out->passed++; break;
		case UT_OUT_SKIPPED: out->skipped++; break;
		case UT_OUT_NOTRUN: out->notrun++; break;
		default: out->failed++; break;
		}
	}
}

bool ut_run_tally_fails_job(const ut_run_tally *t)
{
	return t->failed || t->notrun;
}
