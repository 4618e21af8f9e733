/* cmd_run.c: `untangle run --shard K/N`: one shard of the plan through the project's
 * runner after one reset; what a CI matrix job calls. Its passed tests' durations go to
 * timings.json; --junit writes the outcomes as JUnit XML too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "graph/timings.h"
#include "runner/runner.h"
#include "runner/tally.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"


static void print_text(const ut_shard *sh, const ut_graph *g, const ut_run_result *res,
		       const ut_run_tally *t, const char *label)
{
	size_t i;

	for (i = 0; i < res->n; i++) {
		const ut_test_result *r = &res->tests[i];
		const char *word = r->outcome == UT_OUT_PASS ? "pass"
				   : ut_outcome_fails_job(r->outcome) ? "FAIL" : "skip";

		printf("%-7s %s (%.2f s)%s%s\n", word, ut_cli_esc(g->tests[sh->tests[i]].id),
		       r->duration_s, r->message ? ": " : "", r->message ? r->message : "");
	}
	printf("shard %s: %zu passed, %zu failed, %zu not run, %zu skipped, in %.1f s\n", label,
	       t->passed, t->failed, t->notrun, t->skipped, res->end - res->start);
}

static int print_json(const char *const *ids, const ut_run_result *res, const ut_run_tally *t,
		      const char *label)
{
	ut_buf out = UT_BUF_INIT;
	int rc = ut_run_json(&out, label, ids, res, t);

	if (rc == 0)
		rc = ut_cli_emit(&out);
	ut_buf_dispose(&out);
	return rc;
}

/* The runner ran but left no usable report: say why, with the end of its output. */
static void explain_no_report(const ut_run_result *res)
{
	const char *tail = res->proc.tail ? res->proc.tail : "";
	size_t len = strlen(tail), keep = 2000;

	ut_errorf("the runner left no usable report (%s) on its one try (run does not repeat "
		  "a shard; run the job again once the runner is fixed): %s",
		  ut_run_status_name(res->status),
		  res->report_error ? res->report_error : "no reason given");
	if (len)
		ut_detailf("the end of its output:\n%s%s", len > keep ? "..." : "",
			   tail + (len > keep ? len - keep : 0));
}

/* --junit FILE (when given) and the passed tests' durations into timings.json; a timings
 * file that cannot be updated is a warning, not a failed job. 0 or the error. */
static int save_run(const char *junit, const char *label, const char *const *ids,
		    const ut_run_result *res)
{
	ut_buf xml = UT_BUF_INIT;
	int rc = 0;

	if (junit) {
		rc = ut_run_junit(&xml, label, ids, res);
		if (rc == 0)
			rc = ut_fs_write_atomic(junit, xml.ptr, xml.len);
	}
	ut_buf_dispose(&xml);
	if (rc == 0 && res->n && ut_store_timings_record_run(UT_STORE_TIMINGS, ids, res) < 0)
		ut_warnf("durations not recorded: %s", ut_error_message());
	return rc;
}

/* Runs the shard on worker w after one reset and prints its outcomes; the exit code. */
static int run_shard(const ut_cli_plan *pl, const ut_shard *sh, const char *label, long w,
		     bool json, const char *junit)
{
	ut_cli_signals sigs;
	ut_runner *runner = NULL;
	ut_run_result res;
	const char **ids = malloc(sh->n * sizeof(*ids));
	size_t i;
	ut_run_tally t;
	int rc = 0, exit_code;

	memset(&res, 0, sizeof(res));
	if (!ids) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < sh->n; i++)
		ids[i] = pl->g->tests[sh->tests[i]].id;
	exit_code = ut_cli_runner_new(&runner, &pl->p.cfg);
	if (exit_code)
		goto done;
	ut_infof("shard %s: %zu tests, about %.1f s, on worker %ld", label, sh->n, sh->cost_s, w);
	ut_cli_signals_catch(&sigs);
	/* a runner that cannot work stops here in seconds, not after runner.timeout_s */
	rc = ut_runner_preflight(runner, (int)w, ids[0]);
	if (rc == 0)
		rc = ut_runner_run(runner, (int)w, ids, sh->n, &res);
	ut_cli_signals_restore(&sigs);
	if (rc == UT_EINTR) {
		ut_errorf("interrupted: the runner was stopped");
		exit_code = UT_EXIT_INTERRUPTED;
		goto done;
	}
	if (rc < 0)
		goto fail;
	if (res.status != UT_RUN_OK) {
		explain_no_report(&res);
		exit_code = UT_EXIT_ENV;
		goto done;
	}
	ut_run_tally_count(&t, &res);
	rc = save_run(junit, label, ids, &res);
	if (rc == 0 && json)
		rc = print_json(ids, &res, &t, label);
	else if (rc == 0)
		print_text(sh, pl->g, &res, &t, label);
	if (rc < 0)
		goto fail;
	exit_code = ut_run_tally_fails_job(&t) ? UT_EXIT_FOUND : UT_EXIT_OK;
	goto done;
fail:
	ut_errorf("%s", ut_error_message());
	exit_code = ut_cli_exit_code(rc);
done:
	ut_run_result_dispose(&res);
	ut_runner_free(runner);
	free(ids);
	return exit_code;
}

/* An empty shard's --junit: a report with no testcase, so that the CI job finds its file. */
static int empty_junit(const char *junit, const char *label)
{
	ut_run_result res;
	int rc;

	if (!junit)
		return UT_EXIT_OK;
	memset(&res, 0, sizeof(res));
	res.start = res.end = (double)time(NULL);
	rc = save_run(junit, label, NULL, &res);
	if (rc == 0)
		return UT_EXIT_OK;
	ut_errorf("%s", ut_error_message());
	return ut_cli_exit_code(rc);
}

int cmd_run(int argc, char **argv)
{
	ut_cli_common common = {0};
	const char *shard = NULL, *select = NULL, *junit = NULL, *plan_file = NULL;
	char *junit_abs = NULL;
	ut_buf sel = UT_BUF_INIT;
	long w = 0;
	bool list = false, allow_drift = false;
	ut_opt opts[] = {
		UT_OPT_REQUIRED(UT_OPT_VALUE, 's', "shard", "K/N", "the shard to run: K of N ('untangle shard "
		 "--shards N' shows them)", &shard),
		UT_OPT_INT_ROW('w', "worker", "W", "the worker index given to the runner as "
		 "{worker} (default 0)", &w, 0, 255),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "list", NULL, "print the shard's tests, run nothing", &list),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "select", "STYLE", "with --list: " UT_CLI_SELECT_HELP,
			   &select),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "junit", "FILE", "also write the shard's outcomes there "
			   "as JUnit XML, for the CI system", &junit),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "plan", "FILE", "run shard K of the plan file 'untangle "
		 "shard --plan-file' wrote, without parsing the suite or planning again (N must "
		 "be its number of shards); exit 2 when a file changed since", &plan_file),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "allow-drift", NULL, "with --plan: warn, not stop, when "
		 "the suite changed since the plan was written", &allow_drift),
		UT_CLI_OPT_SUITE(common),
		UT_OPT_END,
	};
	ut_shard_opts so = {0};
	ut_cli_plan pl;
	const ut_shard *sh;
	char label[64];
	size_t k = 0, n = 0, i;
	int exit_code;

	memset(&pl, 0, sizeof(pl));
	if (!ut_cli_parse("run", opts, &common, argc, argv, &exit_code))
		return exit_code;
	if (ut_cli_parse_shard(shard, &k, &n))
		return UT_EXIT_INPUT;
	if (junit && list) {
		ut_errorf("--junit goes with a run, not with --list");
		return UT_EXIT_INPUT;
	}
	if (junit) {
		junit_abs = ut_cli_path_from_start(&common, junit);
		if (!junit_abs)
			return UT_EXIT_ENV;
		junit = junit_abs;
	}
	so.nshards = n;
	if (allow_drift && !plan_file) {
		ut_errorf("--allow-drift goes with --plan FILE");
		return UT_EXIT_INPUT;
	}
	if (plan_file)
		exit_code = ut_cli_plan_read(&pl, &common, plan_file, n, allow_drift);
	else
		exit_code = ut_cli_plan_load(&pl, &common, &so, true);
	if (exit_code)
		goto done;
	sh = &pl.plan.shards[k - 1];
	snprintf(label, sizeof(label), "%zu/%zu", k, n);
	if (list && select) {
		exit_code = ut_cli_selection(&sel, &pl, sh, select);
		if (exit_code == 0 && sel.len)
			fwrite(sel.ptr, 1, sel.len, stdout);
	} else if (list) {
		for (i = 0; i < sh->n; i++)
			printf("%s\n", ut_cli_esc(pl.g->tests[sh->tests[i]].id));
	} else if (!sh->n) {
		ut_infof("shard %s is empty: the graph has fewer independent lists than %zu shards",
			 label, n);
		exit_code = empty_junit(junit, label);
	} else {
		exit_code = run_shard(&pl, sh, label, w, common.json, junit);
	}
done:
	ut_buf_dispose(&sel);
	ut_cli_plan_dispose(&pl);
	free(junit_abs);
	return exit_code;
}
