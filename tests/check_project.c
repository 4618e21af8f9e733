/* check_project.c: a whole detection in-process (ut_detect_project) through a real
 * runner process (tests/fixtures/runner/bin/fake-runner.py): the journal, the graph and
 * the timings written (through store/), a resume replaying every run; the strategy's name
 * and the summary as JSON. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_runner.h"
#include "detect/project.h"
#include "graph/graph_json.h"
#include "json/json.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"

static const char *command[] = {"/usr/bin/python3", "bin/fake-runner.py", "--report",
				"{report}", "--", "{tests}"};
static ut_envvar env[2] = {{"FAKE_FAIL", "t.py::c"}, {"FAKE_LOG", NULL}};
static const char *ids[] = {"t.py::a", "t.py::b", "t.py::c"};
static char *journal_path, *graph_path, *timings_path, *log_path;
static ut_config cfg;
static ut_runner *runner;

static void setup(void)
{
	runner_fixture_setup();
	ut_config_init(&cfg);
	cfg.runner.command.items = command;
	cfg.runner.command.n = sizeof(command) / sizeof(command[0]);
	log_path = strdup(fixture(0, "fake.log"));
	env[1].value = log_path;
	cfg.runner.env = env;
	cfg.runner.nenv = 2;
	cfg.runner.timeout_s = 30;
	journal_path = strdup(fixture(0, "journal.jsonl"));
	graph_path = strdup(fixture(0, "graph.json"));
	timings_path = strdup(fixture(0, "timings.json"));
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, fixture_dir(), fixture(0, "work")), 0);
}

static void teardown(void)
{
	ut_runner_free(runner);
	runner = NULL;
	ut_config_dispose(&cfg);
	free(journal_path);
	free(graph_path);
	free(timings_path);
	free(log_path);
	runner_fixture_teardown();
}

/* a, b, c; the candidate edge b -> a; c fails whatever runs before it */
static ut_graph *graph(void)
{
	ut_graph *g = NULL;
	ut_edge *e = NULL;

	ck_assert_int_eq(ut_graph_new(&g, 3), 0);
	for (size_t i = 0; i < 3; i++)
		ck_assert_int_eq(ut_graph_set_test(g, i, ids[i], ids[i] + 5, "t.py", 1, 2), 0);
	ck_assert_int_eq(ut_graph_add(g, 1, 0, UT_ORIGIN_STRING, &e), 0);
	return g;
}

static ut_detect_project_opts opts(ut_journal_mode mode)
{
	ut_detect_project_opts o;

	memset(&o, 0, sizeof(o));
	o.run.strategy = UT_STRATEGY_FAST;
	o.run.workers = 1;
	o.extract = "string-analysis";
	o.filter = "none";
	o.journal_mode = mode;
	o.journal_path = journal_path;
	o.dest.graph = graph_path;
	o.dest.timings = timings_path;
	o.cfg = &cfg;
	return o;
}

static size_t lines(const char *path)
{
	ut_buf b = UT_BUF_INIT;
	size_t n = 0;

	if (ut_fs_read(&b, path, 1 << 20) == 0)
		for (size_t i = 0; i < b.len; i++)
			n += b.ptr[i] == '\n';
	ut_buf_dispose(&b);
	return n;
}

START_TEST(test_project_writes_and_resumes)
{
	ut_detect_project_opts o = opts(UT_JOURNAL_START);
	ut_detect_summary s;
	ut_graph *g = graph(), *again = graph(), *saved = NULL;
	ut_buf b = UT_BUF_INIT;
	size_t runs;

	ck_assert_int_eq(ut_detect_project(g, runner, &o, &s), 0);
	ck_assert(!s.run_failed);
	ck_assert_uint_eq(s.wrote, UT_STORE_WROTE_GRAPH | UT_STORE_WROTE_TIMINGS);
	ck_assert_ptr_null(s.notes_ref); /* no repository given: no note */
	ck_assert_int_gt(s.stats.schedules_run, 0);
	ck_assert(g->tests[2].failing);
	ck_assert_int_eq((int)s.stats.manifest, 0); /* b passes without a: b -> a is false */
	ck_assert_str_eq(g->stats.strategy, "fast");
	/* seconds, failing executions apart: c fails in every run (fake-runner's durations
	 * are 0.25 s per position in the run) */
	ck_assert_int_gt(s.stats.failing_executions, 0);
	ck_assert(s.stats.failing_s >= 0.25 * (double)s.stats.failing_executions - 1e-9);
	ck_assert(s.stats.test_s > s.stats.failing_s);
	ck_assert_int_eq(ut_store_graph_load(&saved, graph_path), 0);
	ck_assert_int_eq((int)saved->ntests, 3);
	ck_assert_int_eq(saved->stats.failing_executions, s.stats.failing_executions);
	ck_assert(saved->stats.test_s > 0);
	ck_assert(saved->tests[2].failing);
	ck_assert_int_eq(ut_fs_read(&b, timings_path, 1 << 16), 0);
	ck_assert_ptr_nonnull(strstr(b.ptr, "\"t.py::a\""));
	ut_buf_dispose(&b);
	ck_assert_int_eq(ut_fs_read(&b, journal_path, 1 << 20), 0);
	ck_assert_msg(strstr(b.ptr, "\"finished\""), "journal not marked finished: %s", b.ptr);
	ut_buf_dispose(&b);
	runs = lines(log_path);
	/* the runner saw the preflight (the first test alone, not journaled) and every run */
	ck_assert_int_eq((long)runs, s.stats.schedules_run + 1);
	ck_assert_int_eq(ut_fs_read(&b, log_path, 1 << 20), 0);
	ck_assert_ptr_nonnull(strstr(b.ptr, "\"ids\": [\"t.py::a\"]"));
	ut_buf_dispose(&b);

	/* --resume: every run comes from the journal, none reaches the runner */
	o = opts(UT_JOURNAL_RESUME);
	ck_assert_int_eq(ut_detect_project(again, runner, &o, &s), 0);
	ck_assert_int_eq(s.stats.replayed, s.stats.schedules_run);
	ck_assert_int_eq((long)lines(log_path), (long)runs);
	ck_assert(again->tests[2].failing);
	ck_assert_uint_eq(s.wrote, UT_STORE_WROTE_GRAPH | UT_STORE_WROTE_TIMINGS);
	ut_graph_free(saved);
	ut_graph_free(again);
	ut_graph_free(g);
}
END_TEST

START_TEST(test_project_resume_without_journal)
{
	ut_detect_project_opts o = opts(UT_JOURNAL_RESUME);
	ut_detect_summary s;
	ut_graph *g = graph();

	/* killed before the journal was written: nothing was lost, the detection starts */
	ck_assert_int_eq(ut_detect_project(g, runner, &o, &s), 0);
	ck_assert(!s.run_failed);
	ck_assert(ut_fs_exists(graph_path));
	ck_assert_int_gt((int)lines(log_path), 0);
	ut_graph_free(g);
}
END_TEST

/* Recording that fails (the timings' folder is missing) leaves the journal unfinished: a
 * plain detect then refuses to start over, so that the runs are not lost. */
START_TEST(test_project_store_failure_keeps_journal)
{
	ut_detect_project_opts o = opts(UT_JOURNAL_START);
	ut_detect_summary s;
	ut_graph *g = graph(), *again = graph();

	o.dest.timings = fixture(0, "no-such-folder/timings.json");
	ck_assert_int_eq(ut_detect_project(g, runner, &o, &s), UT_EENV);
	ck_assert(!s.run_failed);
	ck_assert_uint_eq(s.wrote, UT_STORE_WROTE_GRAPH);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "no-such-folder"));
	o = opts(UT_JOURNAL_START);
	ck_assert_int_eq(ut_detect_project(again, runner, &o, &s), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "--resume"));
	ut_graph_free(again);
	ut_graph_free(g);
}
END_TEST

START_TEST(test_strategy_names)
{
	ut_detect_strategy s = UT_STRATEGY_TEDD;

	ck_assert_int_eq(ut_detect_strategy_parse(&s, "fast"), 0);
	ck_assert_int_eq(s, UT_STRATEGY_FAST);
	ck_assert_int_eq(ut_detect_strategy_parse(&s, "tedd"), 0);
	ck_assert_int_eq(s, UT_STRATEGY_TEDD);
	ck_assert_str_eq(ut_detect_strategy_name(s), "tedd");
	ck_assert_str_eq(ut_detect_strategy_name(UT_STRATEGY_FAST), "fast");
	ck_assert_int_eq(ut_detect_strategy_parse(&s, "slow"), UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "'slow' is not one of tedd, fast");
	ck_assert_int_eq(s, UT_STRATEGY_TEDD); /* untouched */
	ck_assert_int_eq(ut_detect_strategy_parse(&s, NULL), UT_EINPUT);
}
END_TEST

static long count(const ut_json *doc, const char *key)
{
	long n = -1;

	ck_assert_msg(ut_json_whole(ut_json_get(doc, key), 0, 1L << 40, &n), "no %s", key);
	return n;
}

static size_t length(const ut_json *arr)
{
	size_t n = 0;

	for (const ut_json *v = ut_json_first(arr); v; v = ut_json_next(v))
		n++;
	return n;
}

START_TEST(test_summary_json)
{
	ut_graph *g = graph();
	ut_detect_summary s;
	ut_json *doc = NULL;
	ut_buf b = UT_BUF_INIT;
	const ut_json *sel, *flaky, *failing, *without;

	memset(&s, 0, sizeof(s));
	g->tests[0].flaky = true;
	g->tests[2].failing = true;
	g->tests[1].failing = g->tests[1].needs_left_out = true; /* needs a, left out */
	g->stats.strategy = "tedd";
	g->commit = "0123abcd";
	s.g = g;
	s.graph_path = ".untangle/graph.json";
	s.stats.manifest = 4;
	s.stats.schedules_run = 12;
	s.stats.replayed = 5;
	s.stats.verify_added = 2;
	s.stats.phase_s[UT_PHASE_SEARCH] = 1.5;
	ck_assert_int_eq(ut_detect_summary_json(&b, &s), 0);
	ck_assert_int_eq(ut_json_parse(&doc, b.ptr, b.len, "summary"), 0);
	ck_assert_str_eq(ut_json_string(ut_json_get(doc, "graph")), ".untangle/graph.json");
	ck_assert_ptr_null(ut_json_get(doc, "notes_ref"));  /* no note written */
	ck_assert_ptr_null(ut_json_get(doc, "commit"));
	ck_assert_ptr_null(ut_json_get(doc, "selection")); /* no --select */
	ck_assert_int_eq(count(doc, "tests"), 3);
	ck_assert_int_eq(count(doc, "manifest_edges"), 4);
	ck_assert_int_eq(count(doc, "schedules_run"), 12);
	ck_assert_int_eq(count(doc, "replayed"), 5);
	ck_assert_str_eq(ut_json_string(ut_json_get(doc, "strategy")), "tedd");
	ck_assert_int_eq(count(ut_json_get(doc, "verification"), "edges_added"), 2);
	ck_assert(ut_json_number(ut_json_get(ut_json_get(doc, "phase_s"), "search")) == 1.5);
	flaky = ut_json_get(doc, "flaky");
	failing = ut_json_get(doc, "failing_in_original_order");
	ck_assert_int_eq((int)length(flaky), 1);
	ck_assert_str_eq(ut_json_string(ut_json_first(flaky)), "t.py::a");
	ck_assert_int_eq((int)length(failing), 1);
	ck_assert_str_eq(ut_json_string(ut_json_first(failing)), "t.py::c");
	without = ut_json_get(doc, "needs_left_out");
	ck_assert_int_eq((int)length(without), 1);
	ck_assert_str_eq(ut_json_string(ut_json_first(without)), "t.py::b");
	ut_json_free(doc);
	doc = NULL;
	ut_buf_dispose(&b);

	s.notes_ref = "refs/notes/untangle";
	s.selected = true;
	s.selection.selected = 7;
	s.selection.unfixed = 1;
	s.selection.runs = 9;
	ck_assert_int_eq(ut_detect_summary_json(&b, &s), 0);
	ck_assert_int_eq(ut_json_parse(&doc, b.ptr, b.len, "summary"), 0);
	ck_assert_str_eq(ut_json_string(ut_json_get(doc, "notes_ref")), "refs/notes/untangle");
	ck_assert_str_eq(ut_json_string(ut_json_get(doc, "commit")), "0123abcd");
	sel = ut_json_get(doc, "selection");
	ck_assert_int_eq(count(sel, "selected"), 7);
	ck_assert_int_eq(count(sel, "unfixed"), 1);
	ck_assert_int_eq(count(sel, "schedules_run"), 9);
	ut_json_free(doc);
	ut_buf_dispose(&b);
	ut_graph_free(g);
}
END_TEST

Suite *project_suite(void)
{
	Suite *s = suite_create("detect-project");
	TCase *run = tcase_create("run");
	TCase *summary = tcase_create("summary");

	tcase_add_checked_fixture(run, setup, teardown);
	tcase_set_timeout(run, 120);
	tcase_add_test(run, test_project_writes_and_resumes);
	tcase_add_test(run, test_project_resume_without_journal);
	tcase_add_test(run, test_project_store_failure_keeps_journal);
	suite_add_tcase(s, run);
	tcase_add_test(summary, test_strategy_names);
	tcase_add_test(summary, test_summary_json);
	suite_add_tcase(s, summary);
	return s;
}
