/* tally.c: a run's outcomes counted the way `untangle run` reports them to a CI job, and
 * that report as JSON. */
#include "runner/tally.h"

#include <string.h>

#include "util/error.h"
#include "util/jsonw.h"
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

int ut_run_json(ut_buf *out, const char *label, const char *const *ids,
		const ut_run_result *res, const ut_run_tally *t)
{
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "shard", label);
	ut_jsonw_kstr(&w, "status", ut_run_status_name(res->status));
	ut_jsonw_kint(&w, "passed", (long long)t->passed);
	ut_jsonw_kint(&w, "failed", (long long)t->failed);
	ut_jsonw_kint(&w, "not_run", (long long)t->notrun);
	ut_jsonw_kint(&w, "skipped", (long long)t->skipped);
	ut_jsonw_key(&w, "wall_s");
	ut_jsonw_fixed(&w, res->end - res->start, 3);
	ut_jsonw_key(&w, "tests");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < res->n; i++) {
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "id", ids[i]);
		ut_jsonw_kstr(&w, "outcome", ut_outcome_name(res->tests[i].outcome));
		ut_jsonw_key(&w, "duration_s");
		ut_jsonw_fixed(&w, res->tests[i].duration_s, 3);
		if (res->tests[i].message) {
			ut_jsonw_kstr(&w, "message", res->tests[i].message);
		}
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}
