/* check_detect.c: the detect stage's evidence store: what a run shows of every test in it,
 * answered under the monotone assumption; the journal's lines read back; the cost of runs
 * learnt from their durations. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect/internal.h"
#include "util/error.h"
#include "util/fs.h"

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

/* Learns a run of sched (ascending) with outcomes given as a string of 'p' and 'f'; its
 * last `ends` tests each end a schedule asked about (0 as 1). */
static void run_ends(fixture *f, const uint32_t *sched, size_t n, size_t ends,
		     const char *outcomes, long id, bool error)
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
	ck_assert_int_eq(dx_evidence_learn(&f->c, sched, n, ends, &r), 0);
}

static void run(fixture *f, const uint32_t *sched, size_t n, const char *outcomes, long id,
		bool error)
{
	run_ends(f, sched, n, 0, outcomes, id, error);
}

static int known(fixture *f, uint32_t t, const uint32_t *set, size_t n, long *id)
{
	return dx_evidence_known(&f->c, t, set, n, NULL, 0, id);
}

START_TEST(a_pass_answers_supersets_and_a_failure_subsets)
{
	fixture f;
	uint32_t s1[] = {1, 2, 5}, s2[] = {0, 3, 5};
	uint32_t sup[] = {0, 1, 2, 4}, sub[] = {1}, sub2[] = {3}, other[] = {0, 4};
	long id = 0;

	setup(&f);
	run(&f, s1, 3, "ppp", 7, false); /* 5 passed after {1, 2} */
	run(&f, s2, 3, "pfF", 8, false); /* 3 failed after {0}, 5 after {0} (3 failed) */
	ck_assert_int_eq(known(&f, 5, sup, 4, &id), 1);
	ck_assert_int_eq(id, 7);
	ck_assert_int_eq(known(&f, 5, sub, 1, &id), 0);	  /* fewer than it passed after */
	/* the proof rule: 3 failed, so the run says nothing of 5 after 3 */
	ck_assert_int_eq(known(&f, 5, sub2, 1, &id), 0);
	ck_assert_int_eq(known(&f, 5, other, 1, &id), -1); /* after {0} */
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
	dx_evidence_find(&f.c, 6, s2, 1, true)->held = true; /* unless not monotone */
	ck_assert(!dx_evidence_contradicts(&f.c, 6, q, 2));
	dx_evidence_find(&f.c, 6, s2, 1, true)->held = false;
	ck_assert_int_eq(known(&f, 6, q, 2, &id), 1);
	ck_assert_int_eq(id, 2);
	/* and a failure after a superset of a pass is not kept */
	run(&f, s1, 3, "ppf", 3, false);
	ck_assert_int_eq(known(&f, 6, q, 2, &id), 1);
	teardown(&f);
}
END_TEST

/* Intermittent failures add up over a long detection: every pass after a subset of a
 * failure's set is a vote against it, and the failure goes when no run is left for it
 * (but for one a dispute held: a test not monotone there). A failure with d in the set
 * says nothing of a test run without d. */
START_TEST(passes_outvote_failures_that_add_up)
{
	fixture f;
	uint32_t s0[] = {0}, s02[] = {0, 2}, p6[] = {0, 6};
	long id = 0;

	setup(&f);
	ck_assert_int_eq(dx_evidence_add(&f.c, 6, s0, 1, 1, 2, false), 0); /* 2 failures */
	ck_assert_int_eq(dx_evidence_add(&f.c, 5, s02, 2, 2, 2, false), 0);
	dx_evidence_find(&f.c, 5, s02, 2, false)->held = true;
	ck_assert_uint_eq(dx_evidence_failures(&f.c, 6, NULL, 0, UINT32_MAX, false), 2);
	ck_assert_uint_eq(dx_evidence_failures(&f.c, 6, NULL, 0, 0, false), 0); /* 0 was there */
	ck_assert_uint_eq(dx_evidence_failures(&f.c, 6, NULL, 0, 3, false), 2);
	ck_assert_uint_eq(dx_evidence_failures(&f.c, 5, s0, 1, 3, true), 2); /* held */
	ck_assert_uint_eq(dx_evidence_failures(&f.c, 6, NULL, 0, 3, true), 0);
	run(&f, p6, 2, "pp", 3, false); /* 6 passed after {0}: one vote less */
	ck_assert_ptr_nonnull(dx_evidence_find(&f.c, 6, s0, 1, false));
	ck_assert_uint_eq(dx_evidence_find(&f.c, 6, s0, 1, false)->hits, 1);
	run(&f, p6, 2, "pp", 4, false); /* and again: the failure is gone */
	ck_assert_ptr_null(dx_evidence_find(&f.c, 6, s0, 1, false));
	ck_assert_int_eq(known(&f, 6, s0, 1, &id), 1);
	ck_assert_int_eq(dx_evidence_add(&f.c, 5, NULL, 0, 5, 1, true), 0);
	ck_assert_ptr_nonnull(dx_evidence_find(&f.c, 5, s02, 2, false)); /* held */
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

static const char *const jids[] = {"a", "b", "c", "d", "e"};

static ut_journal_header jheader(const char *const *bodies)
{
	ut_journal_header h = {.suite = "5-x", .strategy = "fast", .extract = "string-analysis",
			       .filter = "values", .ntests = 5, .ids = jids, .bodies = bodies,
			       .ignore = "i", .runner = "r"};
	return h;
}

static void jappend(ut_journal *j, long run, const uint32_t *t, size_t n, bool error)
{
	unsigned char o[5] = {UT_OUT_PASS, UT_OUT_FAIL, UT_OUT_NOTRUN, UT_OUT_PASS, UT_OUT_SKIPPED};
	float d[5] = {0.25f, 1.5f, -1.0f, 0.001f, 2.0f};
	ut_journal_record r = {.run = run, .purpose = "p", .tests = t, .outcomes = o,
			       .durations = d, .n = n, .error = error, .detail = "exit status 0",
			       .attempts = 1};

	ck_assert_int_eq(ut_journal_append(j, &r), 0);
}

/* Schedules in any order come back by their indices; error runs and runs of a changed
 * test are not replayed; a plain start refuses an unfinished journal. */
/* One run that answers several tests: each owner at its end that passed with every test
 * before it ended a schedule whole; the others did not. */
START_TEST(several_owners_end_one_run)
{
	fixture f;
	uint32_t s[] = {0, 2, 4, 5, 6}, b5[] = {0, 2, 4}, b6[] = {0, 2, 4, 5}, b4[] = {0, 2};

	setup(&f);
	run_ends(&f, s, 5, 3, "ppppp", 21, false);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 4, b4, 2), 21);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 5, b5, 3), 21);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 6, b6, 4), 21);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 2, s, 1), 0); /* not an owner */
	run_ends(&f, s, 5, 3, "ppfpp", 22, false);
	run_ends(&f, s, 5, 2, "pppfp", 23, false);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 5, b5, 3), 21); /* 21 still */
	ck_assert_int_eq(dx_evidence_whole(&f.c, 6, b6, 4), 21);
	teardown(&f);
	setup(&f);
	run_ends(&f, s, 5, 2, "pppfp", 24, false);
	ck_assert_int_eq(dx_evidence_whole(&f.c, 5, b5, 3), 0); /* it failed */
	ck_assert_int_eq(dx_evidence_whole(&f.c, 6, b6, 4), 0); /* one before it failed */
	ck_assert_int_eq(dx_evidence_whole(&f.c, 4, b4, 2), 0); /* not an owner */
	teardown(&f);
}
END_TEST

/* Within the tests t may need, a pass after P answers for any set holding P's tests among
 * them; a failure still answers its subsets alone. */
START_TEST(a_pass_answers_within_what_t_may_need)
{
	fixture f;
	uint32_t p[] = {0, 1, 3, 4}, u[] = {0, 2, 3, 5}, s03[] = {0, 3}, s0[] = {0};
	uint32_t s023[] = {0, 2, 3}, fl[] = {1, 2, 4};
	long id = 0;

	setup(&f);
	run(&f, (uint32_t[]){0, 1, 3, 4, 6}, 5, "ppppp", 31, false);
	ck_assert_int_eq(known(&f, 6, s03, 2, &id), 0); /* not without u */
	ck_assert_int_eq(dx_evidence_known(&f.c, 6, s03, 2, u, 4, &id), 1);
	ck_assert_int_eq(id, 31);
	ck_assert_int_eq(dx_evidence_known(&f.c, 6, s023, 3, u, 4, &id), 1);
	ck_assert_int_eq(dx_evidence_known(&f.c, 6, s0, 1, u, 4, &id), 0); /* 3 is missing */
	ck_assert_int_eq(dx_evidence_known(&f.c, 6, p, 4, NULL, 0, &id), 1);
	run(&f, (uint32_t[]){1, 2, 4, 7}, 4, "pppf", 32, false);
	ck_assert_int_eq(dx_evidence_known(&f.c, 7, s0, 1, fl, 3, &id), 0);
	ck_assert_int_eq(dx_evidence_known(&f.c, 7, fl, 2, fl, 3, &id), -1);
	teardown(&f);
}
END_TEST

/* A journal whose bodies an older untangle fingerprinted (another rule, no "body_rule"):
 * --resume cannot compare them, so it takes no test as changed (every run is reused) and
 * says so, instead of dropping every run as if every test had changed. */
START_TEST(an_older_journals_bodies_are_not_compared)
{
	char dir[] = "/tmp/ut-journal-XXXXXX", path[64];
	const char *bodies[] = {"1", "2", "3", "4", "5"}, *other[] = {"a", "b", "c", "d", "e"};
	const uint32_t s1[] = {0, 1, 2, 4};
	ut_journal_header h = jheader(bodies);
	ut_journal *j = NULL;
	ut_buf text = UT_BUF_INIT;
	char *rule;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_START), 0);
	jappend(j, 1, s1, 4, false);
	ut_journal_close(j);
	ck_assert_int_eq(ut_fs_read(&text, path, 1 << 20), 0);
	rule = strstr(text.ptr, "\"body_rule\":2,");
	ck_assert_ptr_nonnull(rule);
	memmove(rule, rule + 14, strlen(rule + 14) + 1); /* as an older untangle wrote it */
	ck_assert_int_eq(ut_fs_write_atomic(path, text.ptr, strlen(text.ptr)), 0);
	h = jheader(other);
	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_RESUME), 0);
	ck_assert(ut_journal_changed(j)->bodies_unknown);
	ck_assert_uint_eq(ut_journal_changed(j)->ntests, 0);
	ck_assert_ptr_nonnull(ut_journal_replay(j, s1, 4));
	ut_journal_close(j);
	/* the same rule: compared, every test changed */
	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_FRESH), 0);
	jappend(j, 1, s1, 4, false);
	ut_journal_close(j);
	h = jheader(bodies);
	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_RESUME), 0);
	ck_assert(!ut_journal_changed(j)->bodies_unknown);
	ck_assert_uint_eq(ut_journal_changed(j)->ntests, 5);
	ut_journal_close(j);
	ut_buf_dispose(&text);
	unlink(path);
	snprintf(path, sizeof(path), "%s/journal.jsonl.1.bak", dir);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(the_journal_replays_what_it_may)
{
	char dir[] = "/tmp/ut-journal-XXXXXX", path[64], bak[80];
	const char *bodies[] = {"1", "2", "3", "4", "5"}, *edited[] = {"1", "2", "3", "9", "5"};
	const uint32_t s1[] = {0, 1, 2, 4}, s2[] = {3, 1}, s3[] = {0, 1, 2, 3, 4};
	ut_journal_header h = jheader(bodies);
	const ut_journal_record *r;
	ut_journal *j = NULL;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_START), 0);
	jappend(j, 1, s1, 4, false);
	jappend(j, 2, s2, 2, false);
	jappend(j, 3, s3, 5, true);
	jappend(j, 4, s3, 5, false);
	ut_journal_close(j);

	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_START), UT_EINPUT);
	ck_assert_ptr_null(j);
	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_RESUME), 0);
	ck_assert_uint_eq(ut_journal_recorded(j), 4);
	ck_assert_uint_eq(ut_journal_changed(j)->errors, 1);
	r = ut_journal_replay(j, s2, 2);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->run, 2);
	ck_assert_str_eq(ut_journal_test_id(j, r->tests[0]), "d");
	ck_assert_int_eq(r->outcomes[1], UT_OUT_FAIL);
	ck_assert(r->durations[0] == 0.25f && r->durations[1] == 1.5f);
	r = ut_journal_replay(j, s1, 4);
	ck_assert(r && r->run == 1 && r->n == 4 && r->tests[3] == 4 && r->durations[2] < 0);
	r = ut_journal_replay(j, s3, 5);
	ck_assert(r && r->run == 4 && !r->error); /* run 3 failed as a whole: not replayed */
	ck_assert_ptr_null(ut_journal_replay(j, s3, 5));
	ck_assert_int_eq(ut_journal_next_id(j), 5);
	ck_assert_int_eq(ut_journal_finish(j), 0);
	ut_journal_close(j);

	h = jheader(edited);
	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_RESUME), 0);
	ck_assert_uint_eq(ut_journal_changed(j)->ntests, 1);
	ck_assert_uint_eq(ut_journal_changed(j)->tests[0], 3);
	ck_assert_uint_eq(ut_journal_changed(j)->dropped, 2); /* runs 2 and 4 hold "d" */
	ck_assert(!ut_journal_changed(j)->ignore && !ut_journal_changed(j)->runner);
	ck_assert_ptr_null(ut_journal_replay(j, s2, 2));
	ck_assert_ptr_nonnull(ut_journal_replay(j, s1, 4));
	ut_journal_close(j);
	/* rewritten with the edited header: said once */
	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_RESUME), 0);
	ck_assert_uint_eq(ut_journal_changed(j)->ntests, 0);
	ck_assert_uint_eq(ut_journal_recorded(j), 2);
	ut_journal_close(j);

	ck_assert_int_eq(ut_journal_open(&j, path, &h, UT_JOURNAL_FRESH), 0);
	snprintf(bak, sizeof(bak), "%s.1.bak", path);
	ck_assert_str_eq(ut_journal_backup(j), bak);
	ut_journal_close(j);
	ck_assert(ut_fs_exists(bak));
	unlink(bak);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* The cost of runs: each test's own mean when it passed and when it failed; a test never
 * seen failing priced as the suite's failures are; the runs' time besides their tests. */
START_TEST(runs_are_priced_from_the_seconds_they_took)
{
	dx_cost k;
	uint32_t s1[] = {0, 1, 2}, s2[] = {0, 3};
	ut_outcome o1[] = {UT_OUT_PASS, UT_OUT_PASS, UT_OUT_FAIL},
		   o2[] = {UT_OUT_PASS, UT_OUT_NOTRUN};
	double d1[] = {2, 4, 30}, d2[] = {4, -1};
	dx_result r;

	ck_assert_int_eq(dx_cost_init(&k, N), 0);
	/* nothing known: a second a test, no overhead */
	ck_assert(dx_cost_test(&k, 5, true) == 1.0 && dx_cost_test(&k, 5, false) == 1.0);
	ck_assert(dx_cost_overhead(&k) == 0);
	memset(&r, 0, sizeof(r));
	r.outcomes = o1;
	r.durations = d1;
	r.wall_s = 46; /* 36 s of tests: 10 s besides */
	dx_cost_learn(&k, s1, 3, &r);
	r.outcomes = o2;
	r.durations = d2;
	r.wall_s = 6;
	dx_cost_learn(&k, s2, 2, &r);
	ck_assert_double_eq_tol(dx_cost_test(&k, 0, true), 3.0, 1e-9);  /* (2 + 4) / 2 */
	ck_assert_double_eq_tol(dx_cost_test(&k, 2, false), 30.0, 1e-9); /* its own failure */
	/* 2 never passed: the suite's passing mean, (2 + 4 + 4) / 3 */
	ck_assert_double_eq_tol(dx_cost_test(&k, 2, true), 10.0 / 3, 1e-9);
	/* 1 never failed: its 4 s times the suite's failing mean over its passing mean */
	ck_assert_double_eq_tol(dx_cost_test(&k, 1, false), 4.0 * 30 / (10.0 / 3), 1e-9);
	ck_assert_double_eq_tol(dx_cost_sched(&k, s1, 3), 3 + 4 + 10.0 / 3, 1e-9);
	ck_assert_double_eq_tol(dx_cost_overhead(&k), (10 + 2) / 2.0, 1e-9);
	/* a run that failed as a whole teaches nothing */
	r.error = true;
	r.outcomes = o1;
	r.durations = d1;
	r.wall_s = 1000;
	dx_cost_learn(&k, s1, 3, &r);
	ck_assert_double_eq_tol(dx_cost_test(&k, 0, true), 3.0, 1e-9);
	ck_assert_double_eq_tol(dx_cost_overhead(&k), 6.0, 1e-9);
	dx_cost_dispose(&k);
}
END_TEST

Suite *detect_suite(void)
{
	Suite *s = suite_create("detect");
	TCase *tc = tcase_create("evidence");

	tcase_add_test(tc, a_pass_answers_supersets_and_a_failure_subsets);
	tcase_add_test(tc, a_pass_refutes_the_failures_it_contradicts);
	tcase_add_test(tc, passes_outvote_failures_that_add_up);
	tcase_add_test(tc, whole_schedules_and_runs_without_outcomes);
	tcase_add_test(tc, several_owners_end_one_run);
	tcase_add_test(tc, a_pass_answers_within_what_t_may_need);
	tcase_add_test(tc, the_journal_replays_what_it_may);
	tcase_add_test(tc, an_older_journals_bodies_are_not_compared);
	tcase_add_test(tc, runs_are_priced_from_the_seconds_they_took);
	suite_add_tcase(s, tc);
	return s;
}
