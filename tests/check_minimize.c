/* check_minimize.c: the minimize stage on the thesis' example (Figure 6.4) through the
 * graph and coverage types, flaky tests, obsolete tests, coverage files, durations and
 * feature coverage. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph/timings.h"
#include "json/json.h"
#include "minimize/minimize.h"
#include "minimize/report.h"
#include "util/buf.h"
#include "util/error.h"

Suite *minimize_suite(void);

static const double thesis_cost[] = {3.0, 3.0, 2.5, 3.5, 4.0, 1.0};

/* Figure 6.4 as a stored graph would hold it: t2 -> t1 and t6 -> t2 manifest. */
static ut_graph *thesis_graph(void)
{
	ut_graph *g = NULL;
	ut_edge *e = NULL;
	char id[16], name[8];
	size_t i;

	ck_assert_int_eq(ut_graph_new(&g, 6), 0);
	for (i = 0; i < 6; i++) {
		snprintf(id, sizeof(id), "s.py::t%zu", i + 1);
		snprintf(name, sizeof(name), "t%zu", i + 1);
		ck_assert_int_eq(ut_graph_set_test(g, i, id, name, "s.py", (unsigned)i + 1, 0), 0);
		g->tests[i].duration_s = thesis_cost[i];
	}
	ck_assert_int_eq(ut_graph_add(g, 1, 0, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_MANIFEST;
	ck_assert_int_eq(ut_graph_add(g, 5, 1, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_MANIFEST;
	/* A refuted edge must not constrain anything. */
	ck_assert_int_eq(ut_graph_add(g, 4, 3, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_FALSE;
	return g;
}

static void thesis_coverage(ut_coverage *c)
{
	static const char *const of[6][4] = {
		{"e1", "e3", "e4"}, {"e2", "e3", "e4"}, {"e1", "e5"},
		{"e1", "e2", "e5"}, {"e3", "e4", "e5"}, {"e6"},
	};
	size_t t, k;

	ck_assert_int_eq(ut_coverage_init(c, 6), 0);
	for (t = 0; t < 6; t++)
		for (k = 0; of[t][k]; k++)
			ck_assert_int_eq(ut_coverage_add(c, t, of[t][k]), 0);
}

static void assert_kept(const ut_minimize_result *r, const char *want)
{
	char got[8] = {0};
	size_t i;

	for (i = 0; i < r->ntests; i++)
		got[i] = r->kept[i] ? '1' : '0';
	ck_assert_str_eq(got, want);
}

static void run(const ut_graph *g, const ut_coverage *c, bool no_z3, ut_minimize_result *r)
{
	ut_minimize_opts o = {10, NULL, 0, no_z3};

	ck_assert_int_eq(ut_minimize_run(g, c, thesis_cost, NULL, 1.0, &o, r), 0);
}

START_TEST(the_thesis_example_keeps_t1_t2_t3_t6)
{
	ut_graph *g = thesis_graph();
	ut_coverage c;
	ut_minimize_result r;

	thesis_coverage(&c);
	for (int no_z3 = 0; no_z3 < 2; no_z3++) {
		run(g, &c, no_z3, &r);
		assert_kept(&r, "111001");
		ck_assert_str_eq(r.method, no_z3 ? "greedy" : "z3");
		ck_assert_int_eq(r.status, UT_SOLVE_OPTIMAL);
		ck_assert_double_eq_tol(r.cost_after, 9.5, 1e-9);
		ck_assert_double_eq_tol(r.cost_before, 17.0, 1e-9);
		ck_assert_uint_eq(r.tests_after, 4);
		ck_assert_uint_eq(r.nrequired, 6);
		/* t3, t4, t5: nothing depends on them and others cover each of their
		 * elements; t1 and t2 are dependees, t6 alone covers e6. */
		ck_assert(!r.obsolete[0] && !r.obsolete[1] && r.obsolete[2] && r.obsolete[3] &&
			  r.obsolete[4] && !r.obsolete[5]);
		/* e5 of the removed t5 is covered by the kept t3 alone. */
		ck_assert_uint_eq(r.cov_start[4 + 1] - r.cov_start[4], 3);
		ut_minimize_result_dispose(&r);
	}
	ut_coverage_dispose(&c);
	ut_graph_free(g);
}
END_TEST

START_TEST(flaky_tests_do_not_count_for_coverage_and_keep_pins)
{
	ut_graph *g = thesis_graph();
	ut_coverage c;
	ut_minimize_result r;
	const char *keep[] = {"t5"};
	ut_minimize_opts o = {10, keep, 1, false};

	thesis_coverage(&c);
	/* t6 flaky: e6 is no longer required, so neither is the chain t6 -> t2 -> t1;
	 * t1 + t4 (6.5) covers e1..e5. */
	g->tests[5].flaky = true;
	run(g, &c, false, &r);
	assert_kept(&r, "100100");
	ck_assert_uint_eq(r.nuncoverable, 1);
	ck_assert(!r.obsolete[5]);
	ut_minimize_result_dispose(&r);
	g->tests[5].flaky = false;
	ck_assert_int_eq(ut_minimize_run(g, &c, thesis_cost, NULL, 1.0, &o, &r), 0);
	assert_kept(&r, "110011");
	ck_assert(r.pinned[4]);
	ut_minimize_result_dispose(&r);
	keep[0] = "t9";
	ck_assert_int_eq(ut_minimize_run(g, &c, thesis_cost, NULL, 1.0, &o, &r), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "'t9'"));
	ut_minimize_result_dispose(&r);
	ut_coverage_dispose(&c);
	ut_graph_free(g);
}
END_TEST

START_TEST(coverage_files_name_the_line_of_what_is_wrong)
{
	ut_graph *g = thesis_graph();
	ut_coverage c;
	ut_diags d;
	const char *good = "{\n \"s.py::t1\": [\"a\", \"b\", \"a\"],\n \"s.py::zz\": [\"c\"],\n"
			   " \"s.py::t3\": []\n}";
	const char *not_array = "{\n \"s.py::t1\": [\"a\"],\n\n \"s.py::t2\": \"b\"\n}";
	const char *not_string = "{\n \"s.py::t1\": [1]\n}";

	ut_diags_init(&d);
	ck_assert_int_eq(ut_coverage_init(&c, 6), 0);
	ck_assert_int_eq(ut_coverage_read_json(&c, g, good, strlen(good), "cov.json", &d), 0);
	ck_assert_str_eq(c.source, "file");
	ck_assert_uint_eq(c.of[0].n, 2); /* duplicates count once */
	ck_assert_uint_eq(c.elements.n, 2);
	ck_assert(c.listed[0] && !c.listed[1] && c.listed[2]);
	ck_assert_uint_eq(d.items.n, 1);
	ck_assert_uint_eq(d.items.v[0].line, 3);
	ck_assert_ptr_nonnull(strstr(d.items.v[0].message, "s.py::zz"));
	ut_coverage_dispose(&c);
	ck_assert_int_eq(ut_coverage_init(&c, 6), 0);
	ck_assert_int_eq(ut_coverage_read_json(&c, g, not_array, strlen(not_array), "cov.json", &d),
			 UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "cov.json:4: 's.py::t2': expected an array of strings");
	ck_assert_int_eq(ut_coverage_read_json(&c, g, not_string, strlen(not_string), "cov.json",
					       &d), UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "cov.json:2: 's.py::t1': an element is not a string");
	ck_assert_int_eq(ut_coverage_read_json(&c, g, "[1]", 3, "cov.json", &d), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "cov.json:1:"));
	ck_assert_int_eq(ut_coverage_read_json(&c, g, "{\"a\":", 5, "cov.json", &d), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "cov.json:"));
	ck_assert_int_eq(ut_coverage_load(&c, g, "/nonexistent/cov.json", &d), UT_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "/nonexistent/cov.json"));
	ut_coverage_dispose(&c);
	ut_diags_dispose(&d);
	ut_graph_free(g);
}
END_TEST

START_TEST(durations_fall_back_to_timings_then_the_median)
{
	ut_graph *g = thesis_graph();
	char path[] = "/tmp/ut-timings-XXXXXX";
	const char *timings = "{\"s.py::t2\": 7.5, \"s.py::t3\": 9, \"s.py::gone\": 1}";
	double dur[6], fallback = 0;
	bool est[6];
	ut_timings_info info;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, timings, strlen(timings)), (int)strlen(timings));
	close(fd);
	g->tests[1].duration_s = -1; /* from timings */
	g->tests[3].duration_s = -1; /* nowhere: the median */
	g->tests[4].duration_s = -1;
	ck_assert_int_eq(ut_timings_fill(dur, est, g, path, &info), 0);
	fallback = info.fallback_s;
	ck_assert_double_eq_tol(dur[0], 3.0, 1e-9);
	ck_assert_double_eq_tol(dur[1], 7.5, 1e-9);
	ck_assert_double_eq_tol(dur[2], 9.0, 1e-9); /* the latest runs win over the graph */
	/* known: 3.0, 7.5, 9.0, 1.0: median 5.25 */
	ck_assert_double_eq_tol(fallback, 5.25, 1e-9);
	ck_assert_double_eq_tol(dur[3], 5.25, 1e-9);
	ck_assert(!est[1] && est[3] && est[4] && !est[5]);
	unlink(path);
	for (size_t i = 0; i < 6; i++)
		g->tests[i].duration_s = -1;
	ck_assert_int_eq(ut_timings_fill(dur, est, g, NULL, &info), 0);
	fallback = info.fallback_s;
	ck_assert_double_eq_tol(fallback, UT_TIMINGS_DEFAULT_S, 1e-9);
	ut_graph_free(g);
}
END_TEST

START_TEST(features_come_from_names_pages_and_elements)
{
	ut_graph *g = NULL;
	ut_suite *s = NULL;
	ut_nlp *nlp = NULL;
	ut_coverage c;
	ut_diags d;
	ut_test t;
	static const char *nav[] = {"http://localhost:18080/boards/new"};
	static const char *loc[] = {"board_title"};
	static const char *setup[] = {"login_button"};
	static const char *typed[] = {"My board"};
	ut_action acts[] = {
		{UT_ACT_NAVIGATE, 3, NULL, false, NULL, nav, 1, NULL, 0},
		{UT_ACT_LOCATE, 4, NULL, false, NULL, loc, 1, NULL, 0},
		{UT_ACT_SUBMIT, 4, NULL, false, NULL, typed, 1, NULL, 0},
		{UT_ACT_LOCATE, 9, "conftest.py", true, NULL, setup, 1, NULL, 0},
	};

	ut_diags_init(&d);
	ck_assert_int_eq(ut_suite_new(&s), 0);
	memset(&t, 0, sizeof(t));
	t.id = "t.py::test_add_board";
	t.name = "test_add_board";
	t.actions = acts;
	t.nactions = 4;
	ck_assert_int_eq(ut_vec_push(&s->tests, t), 0);
	ck_assert_int_eq(ut_graph_new(&g, 2), 0);
	ck_assert_int_eq(ut_graph_set_test(g, 0, t.id, t.name, "t.py", 1, 5), 0);
	ck_assert_int_eq(ut_graph_set_test(g, 1, "t.py::test_gone", "test_gone", "t.py", 7, 9), 0);
	ck_assert_int_eq(ut_nlp_new(&nlp, NULL, 0, NULL, 0), 0);
	ck_assert_int_eq(ut_coverage_init(&c, 2), 0);
	ck_assert_int_eq(ut_coverage_features(&c, g, s, nlp, &d), 0);
	ck_assert_str_eq(c.source, "features");
	ck_assert_uint_eq(c.of[0].n, 3);
	ck_assert_str_eq(c.elements.v[c.of[0].v[0]], "feature: add board");
	ck_assert_str_eq(c.elements.v[c.of[0].v[1]], "page: /boards/new");
	ck_assert_str_eq(c.elements.v[c.of[0].v[2]], "element: board_title");
	ck_assert_uint_eq(c.of[1].n, 0);
	ck_assert_uint_eq(d.items.n, 1); /* test_gone is not in the suite */
	ut_coverage_dispose(&c);
	ut_nlp_free(nlp);
	ut_graph_free(g);
	ut_suite_free(s);
	ut_diags_dispose(&d);
}
END_TEST

/* The JSON report: each removed element names the kept test that covers it, each element
 * of an obsolete test another eligible test (kept or not). */
static const ut_json *entry(const ut_json *doc, const char *list, const char *id)
{
	for (const ut_json *t = ut_json_first(ut_json_get(doc, list)); t; t = ut_json_next(t))
		if (!strcmp(ut_json_string(ut_json_get(t, "id")), id))
			return t;
	ck_abort_msg("%s not in %s", id, list);
	return NULL;
}

static const char *first_of(const ut_json *t, const char *key, const char *element)
{
	return ut_json_string(ut_json_first(ut_json_get(ut_json_get(t, key), element)));
}

START_TEST(the_json_report_names_a_witness_per_element)
{
	ut_graph *g = thesis_graph();
	ut_coverage c;
	ut_minimize_result r;
	ut_minimize_report rep;
	ut_buf b = UT_BUF_INIT;
	ut_json *doc = NULL;
	const ut_json *t4, *t3;
	size_t n = 0;

	thesis_coverage(&c);
	run(g, &c, true, &r);
	rep = (ut_minimize_report){g, &c, &r, "coverage.json"};
	ck_assert_int_eq(ut_minimize_report_json(&b, &rep), 0);
	ck_assert_int_eq(ut_json_parse(&doc, b.ptr, b.len, "report"), 0);
	ck_assert_str_eq(ut_json_string(ut_json_get(ut_json_get(doc, "result"), "status")),
			 "optimal");
	ck_assert_str_eq(ut_json_string(ut_json_get(ut_json_get(doc, "coverage"), "path")),
			 "coverage.json");
	for (const ut_json *t = ut_json_first(ut_json_get(doc, "kept")); t; t = ut_json_next(t))
		n++;
	ck_assert_uint_eq(n, 4);
	/* t4 (e1, e2, e5) was removed: t1, t2 and t3 are kept and cover them */
	t4 = entry(doc, "removed", "s.py::t4");
	ck_assert_str_eq(first_of(t4, "covered_by", "e1"), "s.py::t1");
	ck_assert_str_eq(first_of(t4, "covered_by", "e2"), "s.py::t2");
	ck_assert_str_eq(first_of(t4, "covered_by", "e5"), "s.py::t3");
	/* t3 is obsolete: its e5 is also t4's, which was removed but counts as evidence */
	t3 = entry(doc, "obsolete", "s.py::t3");
	ck_assert_str_eq(first_of(t3, "evidence", "e1"), "s.py::t1");
	ck_assert_str_eq(first_of(t3, "evidence", "e5"), "s.py::t4");
	ck_assert_int_eq(ut_minimize_witness(&rep, 5, 5, false), -1); /* e6: t6 alone */
	ut_json_free(doc);
	ut_buf_dispose(&b);
	ut_minimize_result_dispose(&r);
	ut_coverage_dispose(&c);
	ut_graph_free(g);
}
END_TEST

Suite *minimize_suite(void)
{
	Suite *s = suite_create("minimize");
	TCase *tc = tcase_create("minimize");

	tcase_add_test(tc, the_thesis_example_keeps_t1_t2_t3_t6);
	tcase_add_test(tc, flaky_tests_do_not_count_for_coverage_and_keep_pins);
	tcase_add_test(tc, coverage_files_name_the_line_of_what_is_wrong);
	tcase_add_test(tc, durations_fall_back_to_timings_then_the_median);
	tcase_add_test(tc, features_come_from_names_pages_and_elements);
	tcase_add_test(tc, the_json_report_names_a_witness_per_element);
	suite_add_tcase(s, tc);
	return s;
}
