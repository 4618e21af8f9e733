/* post_github.c: posts N generated findings with post/github for tests/post/run, with the
 * options from the environment (GITHUB_*, UT_POST_BASE_DELAY_MS, UT_POST_MAX_ATTEMPTS);
 * prints what it did as one JSON object and the error, if any, on stderr.
 * usage: post_github N */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "post/github.h"
#include "report/report.h"
#include "util/error.h"
#include "util/jsonw.h"

static long env_long(const char *name)
{
	const char *v = getenv(name);

	return v ? strtol(v, NULL, 10) : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0, i;
	ut_finding_test rel = {"tests/t.py::test_add", "tests/t.py", 1};
	ut_github_result res;
	ut_github_opts o;
	ut_findings fs;
	ut_finding f;
	ut_buf summary = UT_BUF_INIT, out = UT_BUF_INIT;
	ut_jsonw w;
	char id[64];
	int rc = 0;

	ut_findings_init(&fs);
	for (i = 0; !rc && i < n; i++) {
		long ev = i;

		memset(&f, 0, sizeof(f));
		snprintf(id, sizeof(id), "tests/t.py::test_%03ld", i);
		f.kind = UT_FINDING_BROKEN;
		f.severity = UT_SEVERITY_ERROR;
		f.test = id;
		f.file = "tests/t.py";
		f.line = (unsigned)i + 2;
		f.end_line = (unsigned)i + 4;
		f.message = "fails after \"test_add\"\n100%: x,y";
		f.related = &rel;
		f.nrelated = 1;
		f.evidence = &ev;
		f.nevidence = 1;
		rc = ut_findings_add(&fs, &f);
	}
	/* in the summary only: no file to annotate */
	memset(&f, 0, sizeof(f));
	f.kind = UT_FINDING_NEW_EDGE;
	f.severity = UT_SEVERITY_WARNING;
	f.test = "tests/t.py::test_removed_file";
	f.message = "new";
	if (!rc)
		rc = ut_findings_add(&fs, &f);
	ut_findings_sort(&fs);
	if (!rc)
		rc = ut_report_markdown(&summary, &fs, NULL);
	ut_github_opts_from_env(&o);
	o.base_delay_ms = env_long("UT_POST_BASE_DELAY_MS");
	o.max_attempts = (int)env_long("UT_POST_MAX_ATTEMPTS");
	o.timeout_s = env_long("UT_POST_TIMEOUT_S") > 0 ? env_long("UT_POST_TIMEOUT_S") : 10;
	memset(&res, 0, sizeof(res));
	if (!rc)
		rc = ut_github_post(&res, &o, &fs, summary.ptr);
	ut_jsonw_init(&w, &out, false);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "rc");
	ut_jsonw_int(&w, rc);
	ut_jsonw_key(&w, "check_run_id");
	ut_jsonw_int(&w, res.check_run_id);
	ut_jsonw_key(&w, "comment_id");
	ut_jsonw_int(&w, res.comment_id);
	ut_jsonw_key(&w, "pull_request");
	ut_jsonw_int(&w, res.pull_request);
	ut_jsonw_key(&w, "requests");
	ut_jsonw_int(&w, (long long)res.requests);
	ut_jsonw_key(&w, "annotations");
	ut_jsonw_int(&w, (long long)res.annotations);
	ut_jsonw_key(&w, "summary");
	ut_jsonw_str(&w, summary.ptr);
	ut_jsonw_key(&w, "error");
	ut_jsonw_str(&w, rc ? ut_error_message() : NULL);
	ut_jsonw_obj_end(&w);
	printf("%s\n", out.ptr);
	if (rc)
		fprintf(stderr, "post_github: %s\n", ut_error_message());
	ut_buf_dispose(&out);
	ut_buf_dispose(&summary);
	ut_findings_dispose(&fs);
	return rc ? 1 : 0;
}
