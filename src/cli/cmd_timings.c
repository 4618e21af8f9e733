/* cmd_timings.c: `untangle timings import FILE...`: the durations a CI system already
 * keeps (JUnit XML reports, pytest-split's .test_durations) into .untangle/timings.json,
 * so that `shard` balances its first lists before any detect. The work is
 * ut_timings_import's (src/graph/timings_import.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"

static int print_result(const ut_timings_import_info *in, size_t ntests, bool json)
{
	ut_buf out = UT_BUF_INIT;
	ut_jsonw w;

	if (json) {
		ut_jsonw_init(&w, &out, false);
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kint(&w, "files", (long long)in->files);
		ut_jsonw_kint(&w, "records", (long long)in->records);
		ut_jsonw_kint(&w, "unused", (long long)in->unused);
		ut_jsonw_kint(&w, "tests", (long long)ntests);
		ut_jsonw_kint(&w, "matched", (long long)in->matched);
		ut_jsonw_kstr(&w, "written", UT_STORE_TIMINGS);
		ut_jsonw_obj_end(&w);
		return ut_cli_emit(&out);
	}
	printf("%zu of %zu tests got a duration from %zu file%s (%zu records, %zu unused); "
	       "written to %s\n", in->matched, ntests, in->files, in->files == 1 ? "" : "s",
	       in->records, in->unused, UT_STORE_TIMINGS);
	return 0;
}

int cmd_timings(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest rest = {0};
	ut_opt opts[] = {
		UT_OPT_REQUIRED(UT_OPT_REST, 0, NULL, "import FILE",
				"JUnit XML reports or pytest-split .test_durations files", &rest),
		UT_CLI_OPT_SUITE(common),
		UT_OPT_END,
	};
	ut_cli_project p;
	ut_timings_import_info info;
	const char **ids = NULL;
	char **files = NULL;
	size_t i, nfiles = 0;
	int rc, exit_code;

	memset(&p, 0, sizeof(p));
	if (!ut_cli_parse("timings", opts, &common, argc, argv, &exit_code))
		goto done;
	exit_code = UT_EXIT_INPUT;
	if (strcmp(rest.items[0], "import") || rest.n < 2) {
		ut_errorf("usage: untangle timings import FILE... (JUnit XML or .test_durations)");
		goto done;
	}
	nfiles = rest.n - 1;
	files = calloc(nfiles, sizeof(*files));
	if (!files) {
		ut_errorf("out of memory");
		exit_code = UT_EXIT_ENV;
		goto done;
	}
	for (i = 0, exit_code = 0; i < nfiles && !exit_code; i++) {
		files[i] = ut_cli_path_from_start(&common, rest.items[i + 1]);
		exit_code = files[i] ? 0 : UT_EXIT_ENV;
	}
	if (exit_code == 0)
		exit_code = ut_cli_project_load(&p, &common, NULL);
	if (exit_code == 0)
		exit_code = ut_cli_guard();
	if (exit_code)
		goto done;
	ids = malloc((p.suite->tests.n ? p.suite->tests.n : 1) * sizeof(*ids));
	if (!ids) {
		ut_errorf("out of memory");
		exit_code = UT_EXIT_ENV;
		goto done;
	}
	for (i = 0; i < p.suite->tests.n; i++)
		ids[i] = p.suite->tests.v[i].id;
	rc = ut_timings_import(UT_STORE_TIMINGS, ids, p.suite->tests.n,
			       (const char *const *)files, nfiles, &info);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	if (!info.matched) {
		ut_errorf("no test of the suite (%zu) is a passed test of the %zu record%s read; "
			  "nothing written", p.suite->tests.n, info.records,
			  info.records == 1 ? "" : "s");
		if (*info.example && p.suite->tests.n)
			ut_detailf("the files name tests as '%s', the suite as '%s'", info.example,
				   ids[0]);
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	if (*info.example)
		ut_infof("%zu record%s gave no duration (not passed, or no such test: '%s')",
			 info.unused, info.unused == 1 ? "" : "s", info.example);
	exit_code = print_result(&info, p.suite->tests.n, common.json) ? UT_EXIT_ENV : UT_EXIT_OK;
done:
	for (i = 0; files && i < nfiles; i++)
		free(files[i]);
	free(files);
	free(ids);
	free(rest.items);
	ut_cli_project_dispose(&p);
	return exit_code;
}
