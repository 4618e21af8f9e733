/* run_schedule.c: runs one schedule through the runner API, for tests/runner/presets.
 *
 *   run_schedule [-C DIR] [--worker W] [--work DIR] ID...
 *
 * Reads DIR/untangle.json (DIR defaults to the working directory), runs the ids in order
 * on worker W (default 0) and prints one line per test, "OUTCOME<TAB>ID<TAB>SECONDS<TAB>
 * MESSAGE", then "run: STATUS proc=... reset=S wall=S". On failure the message
 * and the output tail go to stderr. Exit status: 0 the report was read, 1 no usable report,
 * 2 usage or configuration error, 3 the environment failed (reset, could not start),
 * 4 interrupted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "runner/runner.h"
#include "util/error.h"

static int usage(void)
{
	fprintf(stderr, "usage: run_schedule [-C DIR] [--worker W] [--work DIR] ID...\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *dir = ".", *work = NULL;
	char config[4096], workbuf[4096], how[300];
	ut_runner *runner = NULL;
	ut_run_result res;
	ut_config cfg;
	int i, worker = 0, rc, code;
	size_t k;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (i + 1 >= argc)
			return usage();
		if (strcmp(argv[i], "-C") == 0)
			dir = argv[++i];
		else if (strcmp(argv[i], "--worker") == 0)
			worker = (int)strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--work") == 0)
			work = argv[++i];
		else
			return usage();
	}
	if (i >= argc)
		return usage();
	snprintf(config, sizeof(config), "%s/untangle.json", dir);
	if (!work) {
		snprintf(workbuf, sizeof(workbuf), "%s/.untangle/tmp", dir);
		work = workbuf;
	}
	ut_config_init(&cfg);
	rc = ut_config_load(&cfg, config, false);
	if (rc == 0)
		rc = ut_runner_new(&runner, &cfg, dir, work);
	if (rc < 0) {
		fprintf(stderr, "run_schedule: %s\n", ut_error_message());
		ut_config_dispose(&cfg);
		return rc == UT_EENV ? 3 : 2;
	}
	rc = ut_runner_run(runner, worker, (const char *const *)argv + i, (size_t)(argc - i), &res);
	for (k = 0; k < res.n; k++)
		printf("%s\t%s\t%.3f\t%s%s\n", ut_outcome_name(res.tests[k].outcome), argv[i + k],
		       res.tests[k].duration_s, res.tests[k].flaky ? "(flaky) " : "",
		       res.tests[k].message ? res.tests[k].message : "");
	printf("run: %s proc=%s reset=%.1fs wall=%.1fs\n", ut_run_status_name(res.status),
	       ut_proc_describe(&res.proc, how, sizeof(how)), res.reset_s,
	       res.end - res.start);
	code = rc == UT_EENV ? 3 : rc == UT_EINTR ? 4 : rc < 0 ? 2 : res.status == UT_RUN_OK ? 0 : 1;
	if (rc < 0 || res.status != UT_RUN_OK)
		fprintf(stderr, "run_schedule: %s\n%s%s\n--- output tail ---\n%s\n",
			rc < 0 ? ut_error_message() : "no usable report",
			res.report_error ? res.report_error : "",
			res.unmatched_first ? res.unmatched_first : "", res.proc.tail);
	ut_run_result_dispose(&res);
	ut_runner_free(runner);
	ut_config_dispose(&cfg);
	return code;
}
