/* report.c: the report of `untangle minimize` as JSON, and the witness of an element. */
#include "minimize/report.h"

#include <string.h>

#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"

const char *ut_minimize_status_name(const ut_minimize_result *r)
{
	return r->status == UT_SOLVE_OPTIMAL ? "optimal" : "best-known";
}

/* One witness per element, not every coverer: a gigabyte of JSON on a suite of 2,000 tests
 * otherwise (tests/bench/minimize). */
long ut_minimize_witness(const ut_minimize_report *rep, uint32_t e, long except, bool kept)
{
	size_t j;

	for (j = rep->r->cov_start[e]; j < rep->r->cov_start[e + 1]; j++) {
		uint32_t u = rep->r->cov_tests[j];

		if ((long)u != except && (!kept || rep->r->kept[u]) &&
		    ut_minimize_eligible(&rep->g->tests[u]))
			return (long)u;
	}
	return -1;
}

static void json_coverers(ut_jsonw *w, const ut_minimize_report *rep, uint32_t e, long except,
			  bool kept)
{
	long u = ut_minimize_witness(rep, e, except, kept);

	ut_jsonw_arr_begin(w);
	if (u >= 0)
		ut_jsonw_str(w, rep->g->tests[u].id);
	ut_jsonw_arr_end(w);
}

static void json_test(ut_jsonw *w, const ut_minimize_report *rep, size_t t, const char *evidence)
{
	const ut_graph_test *test = &rep->g->tests[t];
	size_t i;

	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "id", test->id);
	ut_jsonw_kdouble(w, "duration_s", rep->r->duration[t]);
	ut_jsonw_kbool(w, "estimated", rep->r->estimated[t]);
	if (rep->r->pinned[t]) {
		ut_jsonw_kbool(w, "pinned", true);
	}
	if (!ut_minimize_eligible(test)) {
		ut_jsonw_key(w, test->flaky ? "flaky" : "failing");
		ut_jsonw_bool(w, true);
	}
	if (evidence) {
		ut_jsonw_key(w, evidence);
		ut_jsonw_obj_begin(w);
		for (i = 0; i < rep->cov->of[t].n; i++) {
			uint32_t e = rep->cov->of[t].v[i];

			ut_jsonw_key(w, rep->cov->elements.v[e]);
			json_coverers(w, rep, e, (long)t, !strcmp(evidence, "covered_by"));
		}
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_obj_end(w);
}

/* "key": {"tests": N, "duration_s": S} */
static void json_size(ut_jsonw *w, const char *key, size_t tests, double seconds)
{
	ut_jsonw_key(w, key);
	ut_jsonw_obj_begin(w);
	ut_jsonw_kint(w, "tests", (long long)tests);
	ut_jsonw_kdouble(w, "duration_s", seconds);
	ut_jsonw_obj_end(w);
}

int ut_minimize_report_json(ut_buf *out, const ut_minimize_report *rep)
{
	const ut_minimize_result *r = rep->r;
	ut_jsonw w;
	size_t t;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "coverage");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "source", rep->cov->source);
	ut_jsonw_kstr(&w, "path", rep->coverage_path);
	ut_jsonw_kint(&w, "elements", (long long)rep->cov->elements.n);
	ut_jsonw_kint(&w, "required", (long long)r->nrequired);
	ut_jsonw_kint(&w, "only_flaky_or_failing", (long long)r->nuncoverable);
	ut_jsonw_obj_end(&w);
	ut_jsonw_key(&w, "result");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "status", ut_minimize_status_name(r));
	ut_jsonw_kstr(&w, "method", r->method);
	ut_jsonw_kbool(&w, "time_limit_hit", r->stopped);
	ut_jsonw_kdouble(&w, "lower_bound_s", r->lower_bound);
	ut_jsonw_kdouble(&w, "gap_s", r->cost_after - r->lower_bound);
	ut_jsonw_kdouble(&w, "greedy_duration_s", r->greedy_cost);
	ut_jsonw_obj_end(&w);
	json_size(&w, "before", r->ntests, r->cost_before);
	json_size(&w, "after", r->tests_after, r->cost_after);
	ut_jsonw_kdouble(&w, "fallback_duration_s", r->fallback_s);
	for (int pass = 0; pass < 3; pass++) {
		static const char *const keys[] = {"kept", "removed", "obsolete"};
		static const char *const evidence[] = {NULL, "covered_by", "evidence"};

		ut_jsonw_key(&w, keys[pass]);
		ut_jsonw_arr_begin(&w);
		for (t = 0; t < r->ntests; t++)
			if ((pass == 0 && r->kept[t]) || (pass == 1 && !r->kept[t]) ||
			    (pass == 2 && r->obsolete[t]))
				json_test(&w, rep, t, evidence[pass]);
		ut_jsonw_arr_end(&w);
	}
	ut_jsonw_obj_end(&w);
	return ut_jsonw_end(&w, "report");
}
