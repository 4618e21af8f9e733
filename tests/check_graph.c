/* check_graph.c: the graph, sub-use string analysis, value statistics, the value filter,
 * graph.json, and the hooks the tests share (`tests --json`). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extract/extract.h"
#include "filter/candidates.h"
#include "filter/filter.h"
#include "graph/graph.h"
#include "graph/graph_json.h"
#include "store/store.h"
#include "model/hooks.h"
#include "model/suite_json.h"
#include "util/error.h"

Suite *graph_suite(void);

/* A suite from a compact description: per test, its name, then actions as
 * "s:value" (submit), "u:value" (locate/assert use), "S:value" (submit in setup code),
 * "U:value" (use in setup code), ending with NULL. */
static ut_suite *make_suite(const char *const *spec[], size_t ntests)
{
	ut_suite *s = NULL;
	size_t i, j;

	ck_assert_int_eq(ut_suite_new(&s), 0);
	for (i = 0; i < ntests; i++) {
		ut_test t;
		size_t n = 0;

		memset(&t, 0, sizeof(t));
		t.name = spec[i][0];
		t.id = ut_arena_printf(&s->arena, "t.py::%s", spec[i][0]);
		t.file = "t.py";
		t.index = i;
		for (j = 1; spec[i][j]; j++)
			n++;
		t.actions = ut_arena_alloc(&s->arena, (n ? n : 1) * sizeof(*t.actions));
		for (j = 0; j < n; j++) {
			const char *a = spec[i][j + 1];
			ut_action *act = &t.actions[j];

			act->kind = (a[0] == 's' || a[0] == 'S') ? UT_ACT_SUBMIT : UT_ACT_LOCATE;
			act->setup = a[0] == 'S' || a[0] == 'U';
			act->values = ut_arena_alloc(&s->arena, sizeof(*act->values));
			act->values[0] = a + 2;
			act->nvalues = 1;
		}
		t.nactions = n;
		ck_assert_int_eq(ut_vec_push(&s->tests, t), 0);
	}
	return s;
}

START_TEST(graph_edges_are_unique_and_ordered)
{
	ut_graph *g = NULL;
	ut_edge *e = NULL, *again = NULL;
	ut_scheduler s;
	uint32_t *v = NULL;
	size_t n = 0, cap = 0;

	ck_assert_int_eq(ut_graph_new(&g, 4), 0);
	ck_assert_int_eq(ut_graph_add(g, 2, 1, UT_ORIGIN_STRING, &e), 0);
	ck_assert_int_eq(ut_graph_add_value(g, e, "x", true), 0);
	ck_assert_int_eq(ut_graph_add_value(g, e, "x", false), 0);
	ck_assert_uint_eq(e->nvalues, 1);
	ck_assert(!e->values[0].setup); /* seen outside setup code too */
	ck_assert_int_eq(ut_graph_add(g, 2, 1, UT_ORIGIN_ORDER, &again), 0);
	ck_assert_ptr_eq(again, ut_graph_find(g, 2, 1));
	ck_assert_uint_eq(g->edges.n, 1);
	ck_assert_int_eq(ut_graph_add(g, 1, 2, UT_ORIGIN_STRING, &e), UT_EINPUT);
	ck_assert_int_eq(ut_graph_add(g, 1, 1, UT_ORIGIN_STRING, &e), UT_EINPUT);
	ck_assert_int_eq(ut_graph_add(g, 3, 2, UT_ORIGIN_STRING, &e), 0);
	ck_assert_int_eq(ut_graph_add(g, 1, 0, UT_ORIGIN_STRING, &e), 0);
	ck_assert_ptr_null(ut_graph_find(g, 3, 0));
	/* 3 needs 2, 2 needs 1, 1 needs 0: the whole suite */
	ck_assert_int_eq(ut_scheduler_init_active(&s, g), 0);
	ck_assert_int_eq(ut_scheduler_of(&s, 3, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert(v[0] == 0 && v[1] == 1 && v[2] == 2 && v[3] == 3);
	ut_scheduler_dispose(&s);
	/* a false edge is not followed: 3 needs 2 only */
	ut_graph_find(g, 2, 1)->status = UT_EDGE_FALSE;
	n = 0;
	ck_assert_int_eq(ut_scheduler_init_active(&s, g), 0);
	ck_assert_int_eq(ut_scheduler_of(&s, 3, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert(v[0] == 2 && v[1] == 3);
	ut_scheduler_dispose(&s);
	free(v);
	ut_graph_free(g);
}
END_TEST

START_TEST(graph_table_grows)
{
	ut_graph *g = NULL;
	ut_edge *e;
	uint32_t i, j;

	ck_assert_int_eq(ut_graph_new(&g, 120), 0);
	for (i = 1; i < 120; i++)
		for (j = 0; j < i; j++)
			ck_assert_int_eq(ut_graph_add(g, i, j, UT_ORIGIN_ORDER, &e), 0);
	ck_assert_uint_eq(g->edges.n, 120 * 119 / 2);
	for (i = 1; i < 120; i++)
		for (j = 0; j < i; j++)
			ck_assert_uint_eq(ut_graph_find(g, i, j)->dependee, j);
	ut_graph_free(g);
}
END_TEST

/* The running example of thesis Figure 5.1/5.4 in miniature. */
static const char *const t_add_user[] = {"addUserTest", "S:john@x", "s:foo@bar.com", "s:pw1", NULL};
static const char *const t_login[] = {"loginUserTest", "S:john@x", "s:foo@bar.com", "s:pw1", NULL};
static const char *const t_add_board[] = {"addBoardTest", "S:john@x", "s:myproject", NULL};
static const char *const t_share[] = {"shareBoardTest", "S:john@x", "u:myproject", "s:foo@bar.com", NULL};
static const char *const t_list[] = {"addListToBoardTest", "S:john@x", "u:myproject", "s:todo", NULL};
static const char *const *example[] = {t_add_user, t_login, t_add_board, t_share, t_list};

START_TEST(string_analysis_follows_submitted_values)
{
	ut_suite *s = make_suite(example, 5);
	ut_graph *g = NULL;
	ut_extract_stats st;
	ut_edge *e;

	ck_assert_int_eq(ut_graph_from_suite(&g, s), 0);
	ck_assert_int_eq(ut_extract_string(g, s, NULL, &st), 0);
	/* login uses foo@bar.com and pw1 submitted by addUser, plus the setup login */
	e = ut_graph_find(g, 1, 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->nvalues, 3);
	ck_assert_str_eq(e->values[0].value, "john@x");
	ck_assert(e->values[0].setup);
	ck_assert(!e->values[1].setup);
	/* share -> addBoard through myproject; share -> login and addUser through foo@bar.com */
	ck_assert_ptr_nonnull(ut_graph_find(g, 3, 2));
	ck_assert_uint_eq(ut_graph_find(g, 3, 1)->nvalues, 2);
	/* addList uses myproject (addBoard) and nothing addUser submitted but the setup login */
	ck_assert_uint_eq(ut_graph_find(g, 4, 2)->nvalues, 2);
	ck_assert_uint_eq(ut_graph_find(g, 4, 0)->nvalues, 1);
	ck_assert_uint_eq(st.edges, 10);
	ck_assert_uint_eq(g->edges.n, 10);
	ut_graph_free(g);
	ut_suite_free(s);
}
END_TEST

/* Submitted values used inside longer strings: an XPath, a URL, a message. */
static const char *const e_add[] = {"addBoard", "s:Groceries", "s:Jane Doe",
				    "s:ab",	"s:test",      NULL};
static const char *const e_xpath[] = {"viewBoard", "u://a[text()='Groceries']", NULL};
static const char *const e_url[] = {"openBoard", "u:http://h/boards/Groceries?tab=1", NULL};
static const char *const e_msg[] = {"greet", "u:Welcome back, Jane Doe!", NULL};
static const char *const e_none[] = {
    "other", "u:jane@boards.test", "u:GroceriesList", "u:#ab-list > li", "u:Groc", NULL};
static const char *const *embedded[] = {e_add, e_xpath, e_url, e_msg, e_none};

START_TEST(string_analysis_finds_values_inside_strings)
{
	ut_suite *s = make_suite(embedded, 5);
	ut_graph *g = NULL;
	ut_value_stats vs;
	ut_extract_stats st;
	ut_edge *e;

	ck_assert_int_eq(ut_graph_from_suite(&g, s), 0);
	ck_assert_int_eq(ut_extract_string(g, s, NULL, &st), 0);
	e = ut_graph_find(g, 1, 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->nvalues, 1);
	ck_assert_str_eq(e->values[0].value, "Groceries");
	ck_assert_str_eq(ut_graph_find(g, 2, 0)->values[0].value, "Groceries");
	/* whole tokens with what separates them */
	ck_assert_str_eq(ut_graph_find(g, 3, 0)->values[0].value, "Jane Doe");
	/* not a token of its own ("test" in an email, "Groceries" in "GroceriesList"),
	 * under 3 bytes ("ab"), or a part of a value ("Groc") */
	ck_assert_ptr_null(ut_graph_find(g, 4, 0));
	ck_assert_uint_eq(g->edges.n, 3);
	/* the value statistics count the same uses */
	ck_assert_int_eq(ut_value_stats_build(&vs, s, NULL, 0), 0);
	ck_assert_uint_eq(ut_value_stats_get(&vs, "Groceries")->users, 3);
	ck_assert_uint_eq(ut_value_stats_get(&vs, "test")->users, 1);
	ut_value_stats_dispose(&vs);
	ut_graph_free(g);
	ut_suite_free(s);
}
END_TEST

START_TEST(values_filter_drops_dependency_free_values)
{
	ut_suite *s = make_suite(example, 5);
	ut_candidates_opts o;
	ut_candidates_report r;
	ut_graph *g = NULL;
	const ut_value_stat *v;
	const char *ignore[] = {"pw1"};

	memset(&o, 0, sizeof(o));
	o.filter = UT_FILTER_VALUES;
	o.ignore = ignore;
	o.nignore = 1;
	ck_assert_int_eq(ut_candidates_build(&g, &r, s, &o), 0);
	v = ut_value_stats_get(&r.values, "john@x");
	ck_assert(v->dependency_free);
	ck_assert_uint_eq(v->users, 5);
	ck_assert_uint_eq(v->setup_users, 5);
	ck_assert_str_eq(r.values.v[0].value, "john@x"); /* ranked first */
	ck_assert(ut_value_stats_get(&r.values, "pw1")->ignored);
	ck_assert(!ut_value_stats_get(&r.values, "myproject")->dependency_free);
	/* addList -> addUser was only the admin login: filtered, with the value named */
	ck_assert_str_eq(ut_graph_find(g, 4, 0)->filtered_by, "values");
	ck_assert_ptr_nonnull(strstr(ut_graph_find(g, 4, 0)->reason, "john@x"));
	/* addList -> addBoard keeps myproject only */
	ck_assert_ptr_null(ut_graph_find(g, 4, 2)->filtered_by);
	ck_assert_uint_eq(ut_graph_find(g, 4, 2)->nvalues, 1);
	ck_assert_str_eq(ut_graph_find(g, 4, 2)->values[0].value, "myproject");
	/* login -> addUser keeps foo@bar.com; pw1 is ignored */
	ck_assert_uint_eq(ut_graph_find(g, 1, 0)->nvalues, 1);
	ck_assert_uint_eq(r.filter.candidates, 10);
	ck_assert_uint_eq(r.filter.kept, 5);
	ck_assert_uint_eq(r.filter.by_values, 5);
	ut_graph_free(g);
	ut_candidates_report_dispose(&r);
	ut_suite_free(s);
}
END_TEST

/* Ten tests: "admin" typed by all but one, "jane" used by 8 (two outliers, the most a
 * suite of 10 allows), "bob" by 7; "board1" created by the first test and used by all. */
static const char *const r0[] = {"createBoard", "s:board1", "s:jane", "s:bob", NULL};
static const char *const r1[] = {"a1", "S:admin", "u:board1", "s:jane", "s:bob", NULL};
static const char *const r2[] = {"a2", "S:admin", "u:board1", "s:jane", "s:bob", NULL};
static const char *const r3[] = {"a3", "S:admin", "u:board1", "s:jane", "s:bob", NULL};
static const char *const r4[] = {"a4", "S:admin", "u:board1", "s:jane", "s:bob", NULL};
static const char *const r5[] = {"a5", "S:admin", "u:board1", "s:jane", "s:bob", NULL};
static const char *const r6[] = {"a6", "S:admin", "u:board1", "s:jane", "s:bob", NULL};
static const char *const r7[] = {"a7", "S:admin", "u:board1", "s:jane", NULL};
static const char *const r8[] = {"a8", "S:admin", "u:board1", "u:--headless", NULL};
static const char *const r9[] = {"a9", "S:admin", "u:board1", "u:--headless", NULL};
static const char *const *rule_suite[] = {r0, r1, r2, r3, r4, r5, r6, r7, r8, r9};

START_TEST(values_used_by_nearly_every_test_are_dependency_free)
{
	ut_suite *s = make_suite(rule_suite, 10);
	ut_value_stats vs;
	const ut_value_stat *v;

	ck_assert_int_eq(ut_value_stats_build(&vs, s, NULL, 0), 0);
	/* the admin login: all but one test, submitted by 9: dropped, and proposed */
	v = ut_value_stats_get(&vs, "admin");
	ck_assert_uint_eq(v->users, 9);
	ck_assert(v->dependency_free);
	ck_assert(ut_value_dropped(v));
	ck_assert(ut_value_proposed(v, vs.ntests));
	/* 8 of 10: two outliers are one in five */
	ck_assert(ut_value_stats_get(&vs, "jane")->dependency_free);
	/* 7 of 10: three outliers are too many */
	v = ut_value_stats_get(&vs, "bob");
	ck_assert_uint_eq(v->users, 7);
	ck_assert(!v->dependency_free);
	ck_assert(!ut_value_proposed(v, vs.ntests));
	/* created by one test and used by every other: a real dependency */
	v = ut_value_stats_get(&vs, "board1");
	ck_assert_uint_eq(v->users, 10);
	ck_assert_uint_eq(v->submitters, 1);
	ck_assert(!v->dependency_free);
	ck_assert(!ut_value_dropped(v));
	ck_assert(!ut_value_proposed(v, vs.ntests));
	ut_value_stats_dispose(&vs);
	ut_suite_free(s);
}
END_TEST

START_TEST(small_suites_need_every_test)
{
	ut_value_stat v;
	size_t n;

	memset(&v, 0, sizeof(v));
	/* In 2 to 9 tests, one outlier is 11% to 50% of the suite: every test must use it. */
	for (n = 2; n < UT_VALUE_FREE_MIN_TESTS; n++) {
		v.users = v.submitters = n - 1;
		ck_assert_msg(!ut_value_dependency_free(&v, n), "%zu of %zu tests", n - 1, n);
		v.users = v.submitters = n;
		ck_assert_msg(ut_value_dependency_free(&v, n), "%zu of %zu tests", n, n);
		ck_assert(ut_value_proposed(&v, n));
		/* one creator, the others using it */
		v.submitters = 1;
		ck_assert(!ut_value_dependency_free(&v, n));
		/* used by all and submitted by none: dropped, connects nothing, not proposed */
		v.submitters = 0;
		ck_assert(ut_value_dependency_free(&v, n));
		ck_assert(!ut_value_proposed(&v, n));
	}
	/* a suite of one test has no dependencies to judge */
	v.users = v.submitters = 1;
	ck_assert(!ut_value_dependency_free(&v, 1));
	v.users = v.submitters = 0;
	ck_assert(!ut_value_dependency_free(&v, 0));
	/* from 10 tests on: all but one in five (40 tests: 32 users, not 31) */
	v.users = v.submitters = 32;
	ck_assert(ut_value_dependency_free(&v, 40));
	v.users = v.submitters = 31;
	ck_assert(!ut_value_dependency_free(&v, 40));
}
END_TEST

START_TEST(huge_dependency_free_values_are_not_paired)
{
	ut_suite *s = make_suite(example, 5);
	ut_candidates_opts o;
	ut_candidates_report r;
	ut_graph *g = NULL;

	memset(&o, 0, sizeof(o));
	o.filter = UT_FILTER_VALUES;
	o.max_dropped_pairs = 1; /* as if john@x connected millions of pairs */
	ck_assert_int_eq(ut_candidates_build(&g, &r, s, &o), 0);
	ck_assert_uint_gt(r.unlisted_pairs, 0);
	ck_assert_ptr_null(ut_graph_find(g, 4, 0)); /* never paired */
	ck_assert_ptr_nonnull(ut_graph_find(g, 4, 2));
	ck_assert_uint_eq(r.filter.kept, 5);
	ut_graph_free(g);
	ut_candidates_report_dispose(&r);
	ut_suite_free(s);
}
END_TEST

START_TEST(a_value_that_connects_millions_of_pairs_is_refused)
{
	static const char *const one[] = {"testShared", "s:shared@x", NULL};
	const char *const **spec = calloc(2100, sizeof(*spec));
	ut_candidates_opts o;
	ut_candidates_report r;
	ut_graph *g = NULL;
	ut_suite *s;
	size_t i;

	for (i = 0; i < 2100; i++)
		spec[i] = one;
	s = make_suite(spec, 2100);
	memset(&o, 0, sizeof(o));
	o.filter = UT_FILTER_NONE;
	ck_assert_int_eq(ut_candidates_build(&g, &r, s, &o), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "'shared@x' alone is used by 2100 tests"));
	ck_assert_ptr_null(g);
	ut_suite_free(s);
	free(spec);
}
END_TEST

START_TEST(nlp_filters_follow_the_thesis_example)
{
	ut_suite *s = make_suite(example, 5);
	ut_candidates_opts o;
	ut_candidates_report r;
	ut_graph *g = NULL;

	memset(&o, 0, sizeof(o));
	o.filter = UT_FILTER_DOBJ;
	ck_assert_int_eq(ut_candidates_build(&g, &r, s, &o), 0);
	/* shareBoard -> loginUser: login is a read (verb) */
	ck_assert_str_eq(ut_graph_find(g, 3, 1)->filtered_by, "verb");
	/* loginUser -> addUser: read after write, kept */
	ck_assert_ptr_null(ut_graph_find(g, 1, 0)->filtered_by);
	/* addListToBoard -> addBoard: list vs board under dobj */
	ck_assert_str_eq(ut_graph_find(g, 4, 2)->filtered_by, "dobj");
	ut_graph_free(g);
	ut_candidates_report_dispose(&r);
	o.filter = UT_FILTER_NOUN;
	ck_assert_int_eq(ut_candidates_build(&g, &r, s, &o), 0);
	ck_assert_ptr_null(ut_graph_find(g, 4, 2)->filtered_by); /* shared noun board */
	ck_assert_str_eq(ut_graph_find(g, 3, 1)->filtered_by, "verb");
	ut_graph_free(g);
	ut_candidates_report_dispose(&r);
	ut_suite_free(s);
}
END_TEST

START_TEST(original_order_connects_every_pair)
{
	ut_suite *s = make_suite(example, 5);
	ut_candidates_opts o;
	ut_candidates_report r;
	ut_graph *g = NULL;

	memset(&o, 0, sizeof(o));
	o.original_order = true;
	ck_assert_int_eq(ut_candidates_build(&g, &r, s, &o), 0);
	ck_assert_uint_eq(g->edges.n, 10);
	ck_assert_int_eq(ut_graph_find(g, 4, 0)->origin, UT_ORIGIN_ORDER);
	ut_graph_free(g);
	ut_candidates_report_dispose(&r);
	ut_suite_free(s);
}
END_TEST

START_TEST(graph_json_round_trip)
{
	ut_suite *s = make_suite(example, 5);
	ut_graph *g = NULL, *back = NULL;
	ut_extract_stats st;
	ut_buf a = UT_BUF_INIT, b = UT_BUF_INIT;
	ut_edge *e;

	ck_assert_int_eq(ut_graph_from_suite(&g, s), 0);
	ck_assert_int_eq(ut_extract_string(g, s, NULL, &st), 0);
	e = ut_graph_find(g, 3, 2);
	e->status = UT_EDGE_MANIFEST;
	ut_graph_add_evidence(e, 7);
	ut_graph_find(g, 4, 0)->filtered_by = "values";
	ut_graph_find(g, 4, 0)->reason = "only \"john@x\"";
	g->tests[2].duration_s = 1.5;
	g->stats.strategy = "tedd";
	g->stats.schedules_run = 12;
	ck_assert_int_eq(ut_graph_write_json(&a, g), 0);
	ck_assert_int_eq(ut_graph_read_json(&back, a.ptr, a.len, "g.json"), 0);
	ck_assert_int_eq(ut_graph_write_json(&b, back), 0);
	if (strcmp(a.ptr, b.ptr))
		fprintf(stderr, "%s\n----\n%s\n", a.ptr, b.ptr);
	ck_assert(strcmp(a.ptr, b.ptr) == 0);
	ck_assert_int_eq(ut_graph_find(back, 3, 2)->status, UT_EDGE_MANIFEST);
	ck_assert_int_eq(ut_graph_find(back, 3, 2)->evidence.v[0], 7);
	ck_assert_ptr_null(ut_graph_find(back, 4, 0)); /* filtered: not kept */
	ut_buf_dispose(&a);
	ut_buf_dispose(&b);
	ut_graph_free(back);
	ut_graph_free(g);
	ut_suite_free(s);
}
END_TEST

/* graph.json keeps what was proven and what could not be validated; filtered candidates
 * and refuted edges stay out (the file would grow with the square of the suite), and each
 * test's passing run, the evidence against them, goes in. The git note is the same graph
 * without indentation. */
START_TEST(graph_json_keeps_what_was_proven)
{
	ut_graph *g = NULL, *back = NULL, *from_note = NULL;
	ut_buf a = UT_BUF_INIT, note = UT_BUF_INIT;
	ut_edge *e;

	ck_assert_int_eq(ut_graph_new(&g, 4), 0);
	for (size_t i = 0; i < 4; i++) {
		char id[16];

		snprintf(id, sizeof(id), "t%zu", i);
		ck_assert_int_eq(ut_graph_set_test(g, i, id, id, "t.py", (unsigned)i + 1, 0), 0);
	}
	ck_assert_int_eq(ut_graph_add(g, 3, 0, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_MANIFEST; /* proven */
	ut_graph_add_evidence(e, 4);
	ck_assert_int_eq(ut_graph_add(g, 3, 1, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_FALSE; /* refuted */
	ut_graph_add_evidence(e, 5);
	ck_assert_int_eq(ut_graph_add(g, 3, 2, UT_ORIGIN_ORDER, &e), 0);
	e->filtered_by = "values"; /* filtered, never run */
	ck_assert_int_eq(ut_graph_add(g, 2, 1, UT_ORIGIN_STRING, &e), 0); /* not validated */
	ck_assert_int_eq(ut_graph_add(g, 1, 0, UT_ORIGIN_DECLARED, &e), 0);
	e->status = UT_EDGE_MANIFEST;
	g->tests[3].pass_run = 5;
	ck_assert_int_eq(ut_graph_write_json(&a, g), 0);
	ck_assert_ptr_nonnull(strstr(a.ptr, "\"passed_in\": 5"));
	ck_assert_int_eq(ut_graph_read_json(&back, a.ptr, a.len, "g.json"), 0);
	ck_assert_uint_eq(back->edges.n, 3);
	ck_assert_int_eq(ut_graph_find(back, 3, 0)->status, UT_EDGE_MANIFEST);
	ck_assert_int_eq(ut_graph_find(back, 3, 0)->evidence.v[0], 4);
	ck_assert_ptr_null(ut_graph_find(back, 3, 1));
	ck_assert_ptr_null(ut_graph_find(back, 3, 2));
	ck_assert_int_eq(ut_graph_find(back, 2, 1)->status, UT_EDGE_CANDIDATE);
	ck_assert_int_eq(ut_graph_find(back, 1, 0)->origin, UT_ORIGIN_DECLARED);
	ck_assert_int_eq(back->tests[3].pass_run, 5);
	ck_assert_int_eq(back->tests[2].pass_run, 0);
	/* the note: one line, the same graph */
	ck_assert_int_eq(ut_graph_write_note(&note, g), 0);
	ck_assert_ptr_eq(strchr(note.ptr, '\n'), note.ptr + note.len - 1);
	ck_assert_uint_lt(note.len, a.len);
	ck_assert_int_eq(ut_graph_read_json(&from_note, note.ptr, note.len, "note"), 0);
	ck_assert_uint_eq(from_note->edges.n, 3);
	ck_assert_int_eq(from_note->tests[3].pass_run, 5);
	ut_buf_dispose(&a);
	ut_buf_dispose(&note);
	ut_graph_free(from_note);
	ut_graph_free(back);
	ut_graph_free(g);
}
END_TEST

START_TEST(graph_json_errors_name_the_line)
{
	static const char bad_edge[] =
		"{\"version\": 1,\n \"tests\": [{\"id\": \"a\"}, {\"id\": \"b\"}],\n"
		" \"edges\": [{\"dependent\": \"b\",\n  \"dependee\": \"zzz\"}]}\n";
	static const char backwards[] =
		"{\"version\": 1, \"tests\": [{\"id\": \"a\"}, {\"id\": \"b\"}],\n"
		" \"edges\": [{\"dependent\": \"a\", \"dependee\": \"b\"}]}\n";
	static const char newer[] = "{\"version\": 9, \"tests\": []}";
	static const char huge[] =
		"{\"version\": 1, \"tests\": [{\"id\": \"a\", \"line\": 5.08889e13}],"
		" \"stats\": {\"schedules_run\": 1e300}}";
	static const char dup_key[] =
		"{\"version\": 1, \"tests\": [{\"id\": \"a\"}, {\"id\": \"b\"}],\n"
		" \"edges\": [{\"dependent\": \"b\", \"status\": \"manifest\",\n"
		"  \"dependee\": \"a\",\n  \"dependee\": \"zzz\"}]}\n";
	ut_graph *g = NULL;

	ck_assert_int_eq(ut_graph_read_json(&g, bad_edge, strlen(bad_edge), "g.json"), UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "g.json:4: edge names an unknown test zzz");
	ck_assert_int_eq(ut_graph_read_json(&g, backwards, strlen(backwards), "g.json"), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "against the original order"));
	ck_assert_int_eq(ut_graph_read_json(&g, newer, strlen(newer), "g.json"), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "version"));
	ck_assert_int_eq(ut_graph_read_json(&g, "{", 1, "g.json"), UT_EINPUT);
	/* a key twice in an edge: which of the two would count is anyone's guess */
	ck_assert_int_eq(ut_graph_read_json(&g, dup_key, strlen(dup_key), "g.json"), UT_EINPUT);
	ck_assert_str_eq(ut_error_message(), "g.json:4: duplicate key \"dependee\" (first on line 3)");
	/* numbers no integer holds are ignored, not cast (undefined behaviour; found by fuzz_json) */
	ck_assert_int_eq(ut_graph_read_json(&g, huge, strlen(huge), "g.json"), 0);
	ck_assert_uint_eq(g->tests[0].line, 0);
	ck_assert_int_eq(g->stats.schedules_run, 0);
	ut_graph_free(g);
	g = NULL;
	ck_assert_int_eq(ut_store_graph_load(&g, "/nonexistent/graph.json"), UT_ENOTFOUND);
	ck_assert_ptr_null(g);
}
END_TEST

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

/* Setup copied into every test by the parsers comes out once, split by file. */
START_TEST(hooks_are_shared_once)
{
	static const char *const t1[] = {"t1", "S:login", "u:a", "U:bye", NULL};
	static const char *const t2[] = {"t2", "S:login", "s:b", "U:bye", NULL};
	static const char *const t3[] = {"t3", "S:other", "u:c", NULL};
	static const char *const t4[] = {"t4", "S:login", "S:local", "u:d", NULL};
	static const char *const t5[] = {"t5", "S:login", NULL};
	static const char *const *spec[] = {t1, t2, t3, t4, t5};
	ut_suite *s = make_suite(spec, 5);
	ut_suite_hooks h;
	ut_buf out = UT_BUF_INIT;
	size_t i;

	for (i = 0; i < 5; i++)
		if (i != 2)
			s->tests.v[i].actions[0].file = "conftest.py";
	ck_assert_int_eq(ut_suite_hooks_build(&h, s), 0);
	ck_assert_uint_eq(h.hooks.n, 4); /* login, bye, other, local */
	ck_assert_str_eq(h.hooks.v[0].file, "conftest.py");
	ck_assert_str_eq(h.hooks.v[0].actions[0].values[0], "login");
	ck_assert_uint_eq(h.hooks.v[0].ntests, 4);
	ck_assert_str_eq(h.hooks.v[1].file, "t.py");
	ck_assert_uint_eq(h.hooks.v[1].ntests, 2);
	ck_assert_uint_eq(h.of[1].nsetup, 1);
	ck_assert_uint_eq(ut_suite_hooks_setup(&h, 1)[0], 0);
	ck_assert_uint_eq(h.of[1].nteardown, 1);
	ck_assert_uint_eq(ut_suite_hooks_teardown(&h, 1)[0], 1);
	ck_assert_uint_eq(h.of[1].own_at, 1);
	ck_assert_uint_eq(h.of[1].own_end, 2);
	ck_assert_uint_eq(h.of[3].nsetup, 2);
	ck_assert_uint_eq(ut_suite_hooks_setup(&h, 3)[1], 3);
	ck_assert_uint_eq(h.of[4].own_at, 1); /* only setup: all of it before */
	ck_assert_uint_eq(h.of[4].own_end, 1);
	ck_assert_uint_eq(h.of[4].nteardown, 0);
	ut_suite_hooks_dispose(&h);

	ck_assert_int_eq(ut_suite_write_json(&out, s, NULL, true, false), 0);
	ck_assert_uint_eq(count_of(out.ptr, "\"login\""), 1);
	ck_assert_uint_eq(count_of(out.ptr, "\"bye\""), 1);
	ck_assert_uint_eq(count_of(out.ptr, "\"a\""), 1);
	ck_assert_ptr_nonnull(strstr(out.ptr, "\"setup\":[0],\"teardown\":[1]"));
	ut_buf_clear(&out);
	ck_assert_int_eq(ut_suite_write_json(&out, s, NULL, false, false), 0);
	ck_assert_ptr_null(strstr(out.ptr, "\"values\""));
	ck_assert_ptr_nonnull(strstr(out.ptr, "\"counts\":{\"actions\":1,\"setup\":2,\"teardown\":0}"));
	ut_buf_dispose(&out);
	ut_suite_free(s);
}
END_TEST

/* --limit, --test and --dropped of `candidates`: the strongest first, only the test's. */
START_TEST(candidates_select_strongest_first)
{
	static const char *const ids[] = {"a.py::test_x", "a.py::test_y", "b.py::test_x",
					  "b.py::test_z"};
	ut_candidates_select_opts o = {-1, 2, false, NULL};
	ut_candidates_selection sel;
	ut_graph *g = NULL;
	ut_edge *e = NULL;
	bool ambiguous = false;
	size_t i;

	ck_assert_int_eq(ut_graph_new(&g, 4), 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(ut_graph_set_test(g, i, ids[i], strchr(ids[i], ':') + 2, "a.py",
						   1, 2), 0);
	ck_assert_int_eq(ut_graph_add(g, 1, 0, UT_ORIGIN_STRING, &e), 0);
	ck_assert_int_eq(ut_graph_add_value(g, e, "v1", false), 0);
	ck_assert_int_eq(ut_graph_add(g, 2, 0, UT_ORIGIN_STRING, &e), 0);
	ck_assert_int_eq(ut_graph_add_value(g, e, "v1", false), 0);
	ck_assert_int_eq(ut_graph_add_value(g, e, "v2", false), 0);
	ck_assert_int_eq(ut_graph_add(g, 3, 1, UT_ORIGIN_STRING, &e), 0);
	ck_assert_int_eq(ut_graph_add_value(g, e, "v3", false), 0);
	e->filtered_by = "verb";
	ck_assert_int_eq(ut_graph_add(g, 3, 2, UT_ORIGIN_DECLARED, &e), 0);
	ck_assert_int_eq(ut_graph_add(g, 2, 1, UT_ORIGIN_STRING, &e), 0);
	ck_assert_int_eq(ut_graph_add_value(g, e, "v4", true), 0);

	ck_assert_int_eq(ut_graph_find_test(g, "test_x", &ambiguous), -1);
	ck_assert(ambiguous);
	ck_assert_int_eq(ut_graph_find_test(g, "b.py::test_x", &ambiguous), 2);
	ck_assert_int_eq(ut_graph_find_test(g, "test_y", &ambiguous), 1);
	ck_assert_int_eq(ut_graph_find_test(g, "y::test_z", &ambiguous), -1); /* not after a separator */
	ck_assert_int_eq(ut_graph_find_test(g, "py::test_z", &ambiguous), 3);
	ck_assert_int_eq(ut_graph_find_test(g, "nope", &ambiguous), -1);
	ck_assert(!ambiguous);

	ck_assert_int_eq(ut_candidates_select(g, &o, &sel), 0);
	ck_assert_uint_eq(sel.matching, 4); /* the dropped 3 -> 1 left out */
	ck_assert_uint_eq(sel.listed, 2);
	ck_assert_uint_eq(g->edges.n, 2);
	ck_assert_uint_eq(g->edges.v[0].dependent, 3); /* declared */
	ck_assert_uint_eq(g->edges.v[1].dependent, 2); /* two values */
	ck_assert_uint_eq(g->edges.v[1].dependee, 0);
	ck_assert_ptr_eq(ut_graph_find(g, 2, 0), &g->edges.v[1]);
	ck_assert_ptr_null(ut_graph_find(g, 1, 0));
	ut_graph_free(g);
}
END_TEST

START_TEST(candidates_select_one_test)
{
	ut_candidates_select_opts o = {1, 0, true, "t1"};
	ut_candidates_selection sel;
	ut_graph *g = NULL;
	ut_edge *e = NULL;
	size_t i;

	ck_assert_int_eq(ut_graph_new(&g, 4), 0);
	for (i = 1; i < 4; i++)
		for (uint32_t d = 0; d < i; d++) {
			ck_assert_int_eq(ut_graph_add(g, (uint32_t)i, d, UT_ORIGIN_STRING, &e), 0);
			e->filtered_by = i == 3 && d == 1 ? "values" : NULL;
		}
	ck_assert_int_eq(ut_candidates_select(g, &o, &sel), 0);
	ck_assert_uint_eq(sel.matching, 3); /* 1 -> 0, 2 -> 1, 3 -> 1 (dropped, last) */
	ck_assert_uint_eq(sel.listed, 3);
	for (i = 0; i < g->edges.n; i++)
		ck_assert(g->edges.v[i].dependent == 1 || g->edges.v[i].dependee == 1);
	ck_assert_ptr_nonnull(g->edges.v[2].filtered_by);
	ut_graph_free(g);
}
END_TEST

Suite *graph_suite(void)
{
	Suite *s = suite_create("graph");
	TCase *tc = tcase_create("graph");

	tcase_add_test(tc, graph_edges_are_unique_and_ordered);
	tcase_add_test(tc, graph_table_grows);
	tcase_add_test(tc, string_analysis_follows_submitted_values);
	tcase_add_test(tc, string_analysis_finds_values_inside_strings);
	tcase_add_test(tc, values_filter_drops_dependency_free_values);
	tcase_add_test(tc, values_used_by_nearly_every_test_are_dependency_free);
	tcase_add_test(tc, small_suites_need_every_test);
	tcase_add_test(tc, huge_dependency_free_values_are_not_paired);
	tcase_add_test(tc, a_value_that_connects_millions_of_pairs_is_refused);
	tcase_add_test(tc, nlp_filters_follow_the_thesis_example);
	tcase_add_test(tc, original_order_connects_every_pair);
	tcase_add_test(tc, graph_json_round_trip);
	tcase_add_test(tc, graph_json_keeps_what_was_proven);
	tcase_add_test(tc, graph_json_errors_name_the_line);
	tcase_add_test(tc, hooks_are_shared_once);
	tcase_add_test(tc, candidates_select_strongest_first);
	tcase_add_test(tc, candidates_select_one_test);
	suite_add_tcase(s, tc);
	return s;
}
