/* tally.h: a run's outcomes counted the way `untangle run` reports them to a CI job, and
 * that report as JSON and as JUnit XML. */
#ifndef UT_RUNNER_TALLY_H
#define UT_RUNNER_TALLY_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/runner.h"
#include "util/buf.h"

typedef struct {
	size_t passed;
	size_t failed;  /* fail and error */
	size_t notrun;  /* tests the runner did not run */
	size_t skipped; /* the test's own choice */
} ut_run_tally;

/* Whether the outcome fails the job: fail, error, and not-run (a test the runner did
 * not run counts as failing); skipped does not. */
bool ut_outcome_fails_job(ut_outcome o);

/* Counts res's outcomes into *out (reset first). */
void ut_run_tally_count(ut_run_tally *out, const ut_run_result *res);

/* Whether a test of the tally fails the job. */
bool ut_run_tally_fails_job(const ut_run_tally *t);

/* Appends `untangle run --json`'s report (no final newline): the shard's label, the
 * run's status, the counts of t, the wall time and per test (ids[i] for res->tests[i])
 * its outcome, duration and message. 0, or UT_ENOMEM. */
int ut_run_json(ut_buf *out, const char *label, const char *const *ids,
		const ut_run_result *res, const ut_run_tally *t);

/* Appends `untangle run --junit`'s report: JUnit XML as CI systems read it (the Ant and
 * Jenkins schema, tests/junit/junit.xsd), one `testsuite` named "untangle shard LABEL"
 * in a `testsuites`, with the tests, failures, errors, skipped counts and times, and per
 * test (ids[i] for res->tests[i]) a `testcase`: classname the id up to its last "::"
 * (else "#"), name the rest (ut_junit_match reads the pair back as the id), time its
 * duration; a `failure` for fail, an `error` for error and not-run (which fail the job),
 * a `skipped` for skipped, each with the message. Every name and message goes through
 * ut_xml_escape. 0, or UT_ENOMEM. */
int ut_run_junit(ut_buf *out, const char *label, const char *const *ids,
		 const ut_run_result *res);

#endif
