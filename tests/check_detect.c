/* check_detect.c: the detect stage's evidence store: what a run shows of every test in it,
 * answered under the monotone assumption. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect/internal.h"

#define N 8

typedef struct {
	ut_graph *g;
	ut_detect_stats stats;
	ut_detect_opts opts;
	dx_ctx c;
} fixture;

static void setup(fixture *f)
{
	memset(f, 0, sizeof(*f));
	ck_assert_int_eq(ut_graph_new(&f->g, N), 0);
	for (size_t i = 0; i < N; i++) {
		char id[16];

		snprintf(id, sizeof(id), "t%zu", i);
		ck_assert_int_eq(ut_graph_set_test(f->g, i, id, id, "f", 1, 1), 0);
	}
	f->c.g = f->g;
	f->c.opts = &f->opts;
	f->c.stats = &f->stats;
	f->c.excluded = calloc(N, 1);
	ck_assert_ptr_nonnull(f->c.excluded);
	ck_assert_int_eq(dx_evidence_init(&f->c), 0);
}

static void teardown(fixture *f)
{
	dx_evidence_free(&f->c);
	free(f->c.excluded);
	ut_graph_free(f->g);
}

/* Learns a run of sched (ascending) with outcomes given as a string of 'p' and 'f'. */
static void run(fixture *f, const uint32_t *sched, size_t n, const char *outcomes, long id,
		bool error)
{
	ut_outcome o[N];
	dx_result r;

	memset(&r, 0, sizeof(r));
	for (size_t i = 0; i < n; i++)
		o[i] = outcomes[i] == 'p'   ? UT_OUT_PASS
		       : outcomes[i] == 'n' ? UT_OUT_NOTRUN
					    : UT_OUT_FAIL;
	r.outcomes = o;
	r.run = id;
	r.error = error;
	ck_assert_int_eq(dx_evidence_learn(&f->c, sched, n, &r), 0);
}

static int known(fixture *f, uint32_t t, const uint32_t *set, size_t n, long *id)
{
	return dx_evidence_known(&f->c, t, set, n, id);
}

START_TEST(a_pass_answers_supersets_and_a_failure_subsets)
{
	fixture f;
	uint32_t s1[] = {1, 2, 5}, s2[] = {0, 3, 5};
	uint32_t sup[] = {0, 1, 2, 4}, sub[] = {1}, sub2[] = {3}, other[] = {0, 4};
	long id = 0;

	setup(&f);
	run(&f, s1, 3, "ppp", 7, false); /* 5 passed after {1, 2} */
	run(&f, s2, 3, "pfF", 8, false); /* 3 failed after {0}, 5 after {0, 3} */
	ck_assert_int_eq(known(&f, 5, sup, 4, &id), 1);
	ck_assert_int_eq(id, 7);
	ck_assert_int_eq(known(&f, 5, sub, 1, &id), 0);	  /* fewer than it passed after */
	ck_assert_int_eq(known(&f, 5, sub2, 1, &id), -1); /* a subset of {0, 3} */
	ck_assert_int_eq(id, 8);
	ck_assert_int_eq(known(&f, 3, other, 2, &id), 0); /* more than it failed after */
	ck_assert_int_eq(known(&f, 3, NULL, 0, &id), -1);
	/* the first test of each run passed after nothing */
	ck_assert_int_eq(known(&f, 1, NULL, 0, &id), 1);
	ck_assert_int_eq(known(&f, 0, NULL, 0, &id), 1);
	teardown(&f);
}
END_TEST

START_TEST(a_pass_refutes_the_failures_it_contradicts)
{
	fixture f;
	uint32_t s1[] = {2, 3, 6}, s2[] = {2, 6}, q[] = {2, 3};
	long id = 0;

	setup(&f);
	run(&f, s1, 3, "ppf", 1, false); /* 6 failed after {2, 3} */
	ck_assert_int_eq(known(&f, 6, q, 2, &id), -1);
	ck_assert(dx_evidence_contradicts(&f.c, 6, q, 2) == false);
	run(&f, s2, 2, "pp", 2, false); /* then passed after {2}: flakiness */
	ck_assert(dx_evidence_contradicts(&f.c, 6, q, 2));
	ck_assert_int_eq(known(&f, 6, q, 2, &id), 1);
	ck_assert_int_eq(id, 2);
	/* and a failure after a superset of a pass is not kept */
	run(&f, s1, 3, "ppf", 3, false);
	ck_assert_int_eq(known(&f, 6, q, 2, &id), 1);
	teardown(&f);
}
END_TEST

START_TEST(whole_schedules_and_runs_without_outcomes)
{
	fixture f;
	uint32_t s[] = {0, 2, 4}, before[] = {0, 2}, other[] = {0};
	long id = 0;

	setup(&f);
	run(&f, s, 3, "ppp", 11, false);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 4, before, 2), 11);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 4, other, 1), 0);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 2, other, 1), 0); /* it did not end the run */
	run(&f, s, 3, "ppf", 12, false);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 4, before, 2), 11); /* the pass stands */
	/* a run that failed as a whole teaches nothing; a test that did not run, nothing */
	run(&f, other, 1, "f", 13, true);
	ck_assert_int_eq(known(&f, 0, NULL, 0, &id), 1);
	run(&f, s, 3, "pnp", 14, false);
	ck_assert_int_eq(known(&f, 2, other, 1, &id), 1); /* from run 11 */
	ck_assert_int_eq(id, 11);
	/* tests left out are not learnt about */
	f.c.excluded[7] = DX_FLAKY;
	{
		uint32_t s7[] = {1, 7};

		run(&f, s7, 2, "pf", 15, false);
		ck_assert_int_eq(known(&f, 7, s7, 1, &id), 0);
	}
	teardown(&f);
}
END_TEST

Suite *detect_suite(void)
{
	Suite *s = suite_create("detect");
	TCase *tc = tcase_create("evidence");

	tcase_add_test(tc, a_pass_answers_supersets_and_a_failure_subsets);
	tcase_add_test(tc, a_pass_refutes_the_failures_it_contradicts);
	tcase_add_test(tc, whole_schedules_and_runs_without_outcomes);
	suite_add_tcase(s, tc);
	return s;
}
