/* tally.c: a run's outcomes counted the way `untangle run` reports them to a CI job, and
 * that report as JSON and as JUnit XML. */
#include "runner/tally.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/error.h"
#include "util/jsonw.h"
#include "util/xml.h"
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

/* attr="value", escaped. */
static void xml_attr(ut_buf *out, const char *name, const char *value)
{
	ut_buf_printf(out, " %s=\"", name);
	ut_xml_escape(out, value);
	ut_buf_putc(out, '"');
}

/* The testcase's failure, error or skipped element, if any. */
static void junit_outcome(ut_buf *out, const ut_test_result *r)
{
	const char *el = NULL, *type = NULL, *msg = r->message;

	switch (r->outcome) {
	case UT_OUT_FAIL: el = "failure"; type = "failure"; break;
	case UT_OUT_ERROR: el = "error"; type = "error"; break;
	case UT_OUT_SKIPPED: el = "skipped"; break;
	case UT_OUT_NOTRUN:
		el = "error";
		type = "not-run";
		if (!msg)
			msg = r->absent ? "not run: the runner did not report this test"
					: "not run: the run ended before this test";
		break;
	default: return;
	}
	ut_buf_printf(out, "      <%s", el);
	if (msg)
		xml_attr(out, "message", msg);
	if (type)
		xml_attr(out, "type", type);
	ut_buf_puts(out, "/>\n");
}

int ut_run_junit(ut_buf *out, const char *label, const char *const *ids,
		 const ut_run_result *res)
{
	size_t i, fail = 0, error = 0, skipped = 0;
	double wall = res->end > res->start ? res->end - res->start : 0;
	time_t start = (time_t)res->start;
	struct tm tm;
	char stamp[32] = "1970-01-01T00:00:00", name[96];

	for (i = 0; i < res->n; i++) {
		fail += res->tests[i].outcome == UT_OUT_FAIL;
		error += res->tests[i].outcome == UT_OUT_ERROR || res->tests[i].outcome == UT_OUT_NOTRUN;
		skipped += res->tests[i].outcome == UT_OUT_SKIPPED;
	}
	if (gmtime_r(&start, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(name, sizeof(name), "untangle shard %s", label);
	ut_buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	xml_attr(out, "name", "untangle");
	ut_buf_printf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
		      "time=\"%.3f\">\n  <testsuite", res->n, fail, error, skipped, wall);
	xml_attr(out, "name", name);
	ut_buf_printf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
		      "time=\"%.3f\" timestamp=\"%s\">\n", res->n, fail, error, skipped, wall,
		      stamp);
	for (i = 0; i < res->n; i++) {
		const ut_test_result *r = &res->tests[i];
		const char *id = ids[i], *cut = NULL, *p;
		size_t sep = 2;

		for (p = strstr(id, "::"); p; p = strstr(p + 1, "::"))
			cut = p;
		if (!cut && (cut = strrchr(id, '#')))
			sep = 1;
		ut_buf_puts(out, "    <testcase classname=\"");
		if (cut) {
			char *cls = strndup(id, (size_t)(cut - id));

			if (!cls)
				return ut_error_set(UT_ENOMEM, "out of memory");
			ut_xml_escape(out, cls);
			free(cls);
		}
		ut_buf_putc(out, '"');
		xml_attr(out, "name", cut ? cut + sep : id);
		ut_buf_printf(out, " time=\"%.3f\"", r->duration_s >= 0 ? r->duration_s : 0.0);
		if (r->outcome == UT_OUT_PASS && !r->flaky) {
			ut_buf_puts(out, "/>\n");
			continue;
		}
		ut_buf_puts(out, ">\n");
		junit_outcome(out, r);
		if (r->flaky)
			ut_buf_puts(out, "      <system-out>passed after a failed attempt in the same "
				    "run (flaky)</system-out>\n");
		ut_buf_puts(out, "    </testcase>\n");
	}
	ut_buf_puts(out, "  </testsuite>\n</testsuites>\n");
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}
