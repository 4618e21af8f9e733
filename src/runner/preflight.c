/* preflight.c: the reset and one test alone, with a short deadline, before the real runs
 * of detect, check and run: a runner that cannot work stops them in seconds with what to
 * change, instead of costing one timed-out or reportless run per test. */
#include "runner/runner.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

/* The start of the last n lines of a runner's output tail (NULL gives ""). */
const char *ut_runner_last_lines(const char *tail, size_t n)
{
	size_t len, lines = 0, k;

	if (!tail)
		return "";
	len = k = strlen(tail);
	while (k > 0 && lines < n)
		lines += tail[--k] == '\n' && k + 1 < len;
	return tail + (k && tail[k] == '\n' ? k + 1 : k);
}

/* What the runner's output suggests to change, or "". */
static const char *hint(const char *tail)
{
	static const struct {
		const char *seen, *fix;
	} hints[] = {
		{"package org.junit", "the Java class path: set CLASSPATH in runner.env to the "
		 "compiled test classes and every jar they need (JUnit, Selenium, the project's "
		 "own dependencies)"},
		{"package org.testng", "the Java class path: set CLASSPATH in runner.env to the "
		 "compiled test classes and the TestNG and Selenium jars"},
		{"package org.openqa", "the Java class path: the Selenium jar is missing from "
		 "CLASSPATH in runner.env"},
		{"NoClassDefFoundError", "the Java class path: a class the tests need is missing "
		 "from CLASSPATH in runner.env"},
		{"ClassNotFoundException", "the Java class path: compile the tests and put their "
		 "classes on CLASSPATH in runner.env"},
		{"No module named pytest", "a python3 with pytest: put it first on runner.env's "
		 "PATH, or name it in runner.command"},
		{"No module named", "a Python module the tests import is missing for the python3 "
		 "the runner starts (runner.env PATH, or a virtual environment in "
		 "runner.command)"},
		{"Cannot find module", "the project's node modules: run 'npm ci' in the project "
		 "(mocha and selenium-webdriver resolve from it)"},
		{"SessionNotCreated", "the browser: the driver could not start it (Chromium as "
		 "root needs --headless --no-sandbox and a fresh --user-data-dir)"},
		{"Connection refused", "the application: nothing answers where the tests look; "
		 "check that runner.reset starts it"},
	};
	size_t i;

	for (i = 0; tail && i < sizeof(hints) / sizeof(hints[0]); i++)
		if (strstr(tail, hints[i].seen))
			return hints[i].fix;
	return "";
}

static int stop(const ut_run_result *res, const char *what, const char *fix)
{
	const char *tail = ut_runner_last_lines(res->proc.tail, 12), *more = hint(res->proc.tail);
	size_t len = strlen(tail);

	return ut_error_set(UT_EENV, "preflight: %s. The runner's output ends with:\n%s%sTo "
			    "change: %s%s%s", what, tail, len && tail[len - 1] != '\n' ? "\n" : "",
			    *more ? more : fix, *more ? "; else " : "", *more ? fix : "");
}

/* After the reset (which may build): a Java source newer than its class. */
static int stale_classes(const ut_runner *r)
{
	ut_stale_class st;
	int rc = ut_runner_stale_class(r, &st);

	if (rc <= 0)
		return rc;
	return ut_error_set(UT_EENV, "preflight: %s was changed %.0f s after its class %s was "
			    "compiled: the runs would exercise the code of the last build, not "
			    "the sources untangle reads. To change: build the tests before "
			    "untangle runs them (mvn test-compile, gradle testClasses, javac), or "
			    "in runner.reset; touch the classes if they are current (a build "
			    "restored from a cache with their old times)",
			    st.source, st.behind_s < 1 ? 1 : st.behind_s, st.class_file);
}

int ut_runner_preflight(ut_runner *r, int worker, const char *id)
{
	double within = ut_runner_preflight_s(r);
	ut_run_result res;
	char what[1500], how[300];
	int rc;

	if (within <= 0)
		return 0;
	rc = ut_runner_run_timed(r, worker, &id, 1, within, &res);
	if (rc == UT_EINTR || rc == UT_ENOMEM) {
		ut_run_result_dispose(&res);
		return rc;
	}
	ut_proc_describe(&res.proc, how, sizeof(how));
	if (rc < 0 && res.status == UT_RUN_RESET_FAILED) {
		snprintf(what, sizeof(what), "%s", ut_error_message());
		rc = ut_error_set(UT_EENV, "preflight: %s. To change: runner.reset must leave the "
				  "application in its initial state and exit 0", what);
	} else if (rc < 0 || res.status == UT_RUN_NOSTART) {
		snprintf(what, sizeof(what), "the runner could not start (%s)", ut_error_message());
		rc = stop(&res, what, "runner.command or runner.preset, and runner.env's PATH");
	} else if (res.proc.state == UT_PROC_TIMEOUT) {
		snprintf(what, sizeof(what), "the first test alone ('%s') did not end within %g s "
			 "(runner.preflight_s)", id, within);
		rc = stop(&res, what, "the application must be up after runner.reset (a runner "
			  "that waits for it hangs); if the first test takes longer than that, raise "
			  "runner.preflight_s");
	} else if (res.status != UT_RUN_OK) {
		snprintf(what, sizeof(what), "the first test alone ('%s') left no usable report "
			 "(%s; %s)", id, how, res.report_error ? res.report_error : "no report");
		rc = stop(&res, what, "the runner must write the JUnit XML report at {report} "
			  "(runner.command), and compile and load the tests");
	} else if (res.tests[0].outcome == UT_OUT_NOTRUN) {
		snprintf(what, sizeof(what), "the runner wrote a report without the first test "
			 "('%s'): it does not accept untangle's id for it", id);
		rc = stop(&res, what, "the ids must be the runner's own: see docs/collection.md "
			  "(--collect runner asks the runner for them)");
	}
	ut_run_result_dispose(&res);
	return rc == 0 ? stale_classes(r) : rc;
}
