/* check_detect_sim.c: the strategies fast and tedd run in-process (ut_detect_opts.run)
 * against the simulated runner of detect_sim.c, which hides each test's true
 * prerequisites: the exact graph they end with, and what their runs show (every output
 * schedule passes in the truth; every manifest edge has a run in which its dependent failed
 * without the dependee while every other prerequisite it keeps ran and passed). Includes
 * the two faulty cases of issue 17's journals and flaky tests; and the simulated runner's
 * own faults (non-monotone pair, seeded intermittent failures). Run alone:
 *     CK_RUN_SUITE=detect-sim build-test/tests/check_untangle
 * DSIM_KEEP=1 keeps each detection's journal (/tmp/ut-dsim-*), DSIM_VERBOSE=1 prints
 * the flaky test's graphs. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/journal.h"
#include "detect_sim.h"
#include "graph/graph_json.h"
#include "util/error.h"

typedef struct {
	char dir[32], path[64];
	ut_graph *g;
	sim s;
	ut_detect_opts opts;
	ut_detect_stats stats;
	const char *ids[SIM_MAX];
	char names[SIM_MAX][24];
} dt;

static void dt_setup(dt *d, size_t n)
{
	memset(d, 0, sizeof(*d));
	ck_assert_int_eq(ut_graph_new(&d->g, n), 0);
	for (size_t i = 0; i < n; i++) {
		snprintf(d->names[i], sizeof(d->names[i]), "t%zu", i);
		d->ids[i] = d->names[i];
		ck_assert_int_eq(ut_graph_set_test(d->g, i, d->ids[i], d->ids[i], "f", 1, 1), 0);
	}
	sim_init(&d->s, n);
	d->opts.run = sim_run_schedule;
	d->opts.run_ctx = &d->s;
	snprintf(d->dir, sizeof(d->dir), "/tmp/ut-dsim-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d->dir));
	snprintf(d->path, sizeof(d->path), "%s/journal.jsonl", d->dir);
}

static void dt_teardown(dt *d)
{
	if (!getenv("DSIM_KEEP")) unlink(d->path);
	if (!getenv("DSIM_KEEP")) rmdir(d->dir);
	sim_dispose(&d->s);
	ut_graph_free(d->g);
}

/* A candidate edge from string analysis. */
static void cand(dt *d, uint32_t dependent, uint32_t dependee)
{
	ut_edge *e = NULL;

	ck_assert_int_eq(ut_graph_add(d->g, dependent, dependee, UT_ORIGIN_STRING, &e), 0);
}

/* Edges written "dependent>dependee", space-separated, one by one to f. */
static void each_edge(dt *d, const char *edges, void (*f)(dt *d, uint32_t t, uint32_t p))
{
	char *end;

	while (*edges) {
		unsigned long t = strtoul(edges, &end, 10), p;

		ck_assert_int_eq(*end, '>');
		p = strtoul(end + 1, &end, 10);
		f(d, (uint32_t)t, (uint32_t)p);
		edges = end + (*end == ' ');
	}
}

static void need(dt *d, uint32_t t, uint32_t p)
{
	sim_need(&d->s, t, p);
}

/* A suite of n tests: the true prerequisites (hidden in the simulated runner) and the
 * candidate edges string analysis would give, both as "dependent>dependee ...". */
static void dt_suite(dt *d, size_t n, const char *truth, const char *candidates)
{
	dt_setup(d, n);
	each_edge(d, truth, need);
	each_edge(d, candidates, cand);
}

/* Runs a detection in-process with a fresh journal; returns its code. */
static int detect(dt *d, const char *strategy, int workers, int reruns)
{
	ut_journal_header h = {.suite = "sim", .strategy = strategy, .extract = "x",
			       .filter = "y", .reruns = reruns, .ntests = d->g->ntests,
			       .ids = d->ids};
	ut_journal *j = NULL;
	int rc;

	ck_assert_int_eq(ut_detect_strategy_parse(&d->opts.strategy, strategy), 0);
	d->opts.workers = workers;
	d->opts.reruns = reruns;
	ck_assert_int_eq(ut_journal_open(&j, d->path, &h, UT_JOURNAL_NEW), 0);
	rc = ut_detect_run(d->g, NULL, j, &d->opts, &d->stats);
	ut_journal_close(j);
	return rc;
}

static bool manifest(const dt *d, uint32_t t, uint32_t p)
{
	for (size_t i = 0; i < d->g->edges.n; i++) {
		const ut_edge *e = &d->g->edges.v[i];

		if (e->dependent == t && e->dependee == p)
			return e->status == UT_EDGE_MANIFEST && ut_edge_active(e);
	}
	return false;
}

/* The manifest edges, "dependent>dependee" in graph order, space-separated. */
static void manifest_edges(const dt *d, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (uint32_t t = 0; t < d->g->ntests; t++) {
		for (uint32_t p = 0; p < t; p++) {
			if (manifest(d, t, p))
				len += (size_t)snprintf(buf + len, size - len, "%s%u>%u",
							len ? " " : "", t, p);
		}
	}
}

#define ck_assert_edges(d, want)                                                         \
	do {                                                                             \
		char got_[512];                                                          \
		manifest_edges((d), got_, sizeof(got_));                                 \
		ck_assert_str_eq(got_, (want));                                          \
	} while (0)

/* Every included test's schedule as the commands run it (graph/schedule.c: its
 * transitive prerequisites, every earlier test behind a flaky or failing one) passes in
 * the truth. */
static void ck_schedules_pass(const dt *d)
{
	ut_scheduler sch;
	uint32_t *v = NULL;
	size_t n, cap = 0;

	ck_assert_int_eq(ut_scheduler_init(&sch, d->g), 0);
	for (uint32_t t = 0; t < d->g->ntests; t++) {
		if (d->g->tests[t].flaky || d->g->tests[t].failing)
			continue;
		n = 0;
		ck_assert_int_eq(ut_scheduler_of(&sch, t, &v, &n, &cap), 0);
		ck_assert_msg(sim_passes(&d->s, v, n), "the output schedule of t%u fails", t);
	}
	free(v);
	ut_scheduler_dispose(&sch);
}

/* Whether t needs p in the truth, directly or not. */
static bool truly_needs(const sim *s, uint32_t t, uint32_t p)
{
	for (uint32_t q = p; q < t; q++) {
		if (s->need[t][q] && (q == p || truly_needs(s, q, p)))
			return true;
	}
	return false;
}

/* Every manifest edge t -> p has a run in which t failed, p did not run, and every other
 * manifest prerequisite of t ran and passed before it: the decision rule of docs/detection.md. */
/* Runs that show t failing without p, every other direct prerequisite of t in the graph
 * run and passed before it. */
static size_t certificates(const dt *d, uint32_t t, uint32_t p)
{
	size_t found = 0;

	for (size_t r = 0; r < d->s.nlog; r++) {
		const sim_run *run = &d->s.log[r];
		bool ok[SIM_MAX] = {false}, good = true;
		size_t i;

		for (i = 0; i < run->n && run->sched[i] != t; i++)
			ok[run->sched[i]] = run->passed[i];
		if (i == run->n || run->passed[i])
			continue;
		for (size_t k = 0; k < i; k++)
			good = good && run->sched[k] != p;
		for (uint32_t q = 0; q < t; q++)
			good = good && (q == p || !manifest(d, t, q) || ok[q]);
		found += good;
	}
	return found;
}

/* Every manifest edge has at least `least` such runs. */
static void ck_certificates_at_least(const dt *d, size_t least)
{
	for (uint32_t t = 0; t < d->g->ntests; t++) {
		for (uint32_t p = 0; p < t; p++) {
			if (manifest(d, t, p))
				ck_assert_msg(certificates(d, t, p) >= least,
					      "t%u needs t%u: %zu failing runs show it, %zu wanted",
					      t, p, certificates(d, t, p), least);
		}
	}
}

static void ck_certificates(const dt *d)
{
	ck_certificates_at_least(d, 1);
}

/* Issue 17, case 1 (Claroline, fast): a failure is not attributed to one dependee when the
 * run lacked several. t0 AddUser, t1 EnrolUser (needs t0), t2 SearchCourse (needs t0),
 * t3 DoCourseExerciseQuestions (needs t1). String analysis proposes t2 -> t1 (false) and
 * t3 -> t2 (false) but not t3 -> t1: t3 reaches t1 only through t2. The run "t3 without
 * t2" also leaves out t1 and fails for lack of t1; t2 must not become a prerequisite. */
static void several_left_out(int workers)
{
	dt d;

	dt_suite(&d, 4, "1>0 2>0 3>1", "1>0 2>0 2>1 3>2");
	ck_assert_int_eq(detect(&d, "fast", workers, 0), 0);
	ck_assert_edges(&d, "1>0 2>0 3>1");
	ck_schedules_pass(&d);
	ck_certificates(&d);
	ck_assert_uint_eq(d.stats.flaky + d.stats.failing, 0);
	ck_assert_int_eq(d.stats.schedules_run, (long)d.s.nlog);
	dt_teardown(&d);
}

START_TEST(fast_does_not_blame_one_of_several_left_out)
{
	several_left_out(1);
}
END_TEST

START_TEST(fast_on_workers_gives_the_same_graph)
{
	several_left_out(3);
}
END_TEST

/* Issue 17, case 2 (Claroline, tedd): an inversion that does not invert. t0 Login, t1
 * EnrolUser (needs t0), t2 AddExercise (needs t0), t3 DoCourseExerciseQuestions (needs t2;
 * string analysis adds the false candidate t3 -> t1), t4 RemoveEnrolUser (needs t1, t3).
 * tedd takes t4 -> t3 first (manifest), then inverts t4 -> t1: t1 stays in through the
 * candidate t3 -> t1, t4 passes and the edge is dropped; t3 -> t1 is refuted next, and
 * every test has a prerequisite, so Alg. 6 looks at none: the schedule of t4 lacks t1.
 * The final verification must find it. */
static void case2_suite(dt *d)
{
	dt_suite(d, 5, "1>0 2>0 3>2 4>1 4>3", "1>0 2>0 3>1 3>2 4>1 4>3");
}

START_TEST(tedd_inversion_that_does_not_invert)
{
	dt d;

	case2_suite(&d);
	ck_assert_int_eq(detect(&d, "tedd", 1, 0), 0);
	ck_assert_edges(&d, "1>0 2>0 3>2 4>1 4>3");
	ck_schedules_pass(&d);
	ck_certificates(&d);
	/* the repair is what found t4 -> t1 */
	ck_assert_uint_ge(d.stats.verify_searched, 1);
	dt_teardown(&d);
}
END_TEST

/* The same suite through fast: exact, the verification repairs nothing. */
START_TEST(fast_on_the_tedd_case)
{
	dt d;

	case2_suite(&d);
	ck_assert_int_eq(detect(&d, "fast", 1, 0), 0);
	ck_assert_edges(&d, "1>0 2>0 3>2 4>1 4>3");
	ck_assert_uint_eq(d.stats.verify_searched + d.stats.verify_added, 0);
	ck_schedules_pass(&d);
	ck_certificates(&d);
	dt_teardown(&d);
}
END_TEST

/* A chain with a missing candidate: both strategies recover the edge string analysis did
 * not propose (t2 needs t1, no candidate), and tedd spends more runs than fast. */
START_TEST(both_recover_a_missing_edge)
{
	dt a, b;

	dt_suite(&a, 4, "1>0 2>1 2>0 3>0", "1>0 3>0 3>2");
	dt_suite(&b, 4, "1>0 2>1 2>0 3>0", "1>0 3>0 3>2");
	ck_assert_int_eq(detect(&a, "fast", 1, 0), 0);
	ck_assert_int_eq(detect(&b, "tedd", 1, 0), 0);
	ck_assert_edges(&a, "1>0 2>1 3>0");
	ck_assert_edges(&b, "1>0 2>1 3>0");
	ck_schedules_pass(&a);
	ck_schedules_pass(&b);
	ck_certificates(&a);
	ck_certificates(&b);
	ck_assert_int_lt(a.stats.test_executions, b.stats.test_executions);
	dt_teardown(&a);
	dt_teardown(&b);
}
END_TEST

/* A run of several tests in which none ran (every one not-run: a hook that failed before the first
 * test, a browser that did not answer) says nothing of its tests: it is run again as a run
 * that failed as a whole, and no test is taken for flaky or failing because of it. Found
 * on the bundled JavaScript example in ci/test, where such a run made "adds a work board"
 * flaky and left "counts the boards" out as failing. */
START_TEST(a_run_where_nothing_ran_is_run_again)
{
	for (long k = 3; k <= 12; k++) {
		dt d;

		dt_suite(&d, 5, "1>0 3>1 4>3", "1>0 2>0 3>1 3>2 4>3");
		d.s.crash_run = k;
		ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
		ck_assert_uint_eq(d.stats.flaky, 0);
		for (size_t t = 0; t < 5; t++)
			ck_assert_msg(!d.g->tests[t].flaky && !d.g->tests[t].failing,
				      "crash in run %ld: test %zu left out", k, t);
		ck_assert_edges(&d, "1>0 3>1 4>3");
		ck_schedules_pass(&d);
		dt_teardown(&d);
	}
}
END_TEST

/* A flaky test (fails on every second execution) seen in the reruns of the original
 * order: marked flaky and left out, the rest exact; its candidate edges stay unvalidated. */
START_TEST(a_flaky_test_is_left_out)
{
	const char *strategies[] = {"fast", "tedd"};

	for (size_t k = 0; k < 2; k++) {
		dt d;

		dt_suite(&d, 4, "1>0 3>1", "1>0 2>0 3>1 3>2");
		d.s.flaky = 2;
		d.s.flaky_every = 2;
		ck_assert_int_eq(detect(&d, strategies[k], 1, 1), 0);
		ck_assert(d.g->tests[2].flaky);
		ck_assert_uint_eq(d.stats.flaky, 1);
		ck_assert_edges(&d, "1>0 3>1");
		ck_schedules_pass(&d);
		ck_certificates(&d);
		dt_teardown(&d);
	}
}
END_TEST

/* A test that needs a flaky one (its revisions after an edit that fails every second
 * time, as DokuWiki's did under load): it passed in the original order, then failed after
 * every earlier test but the flaky one. Left out as failing without the tests left out
 * before it, not as failing in the original order; graph.json keeps the difference. */
START_TEST(a_test_that_needs_a_flaky_one_says_so)
{
	dt d;
	ut_buf out = UT_BUF_INIT;
	ut_graph *back = NULL;

	dt_suite(&d, 4, "2>1 3>0", "2>1 3>0");
	d.s.flaky = 1;
	d.s.flaky_every = 2;
	ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
	ck_assert(d.g->tests[1].flaky);
	ck_assert(d.g->tests[2].failing && d.g->tests[2].needs_left_out);
	ck_assert(!d.g->tests[3].failing && !d.g->tests[3].needs_left_out);
	ck_assert_uint_eq(d.stats.flaky, 1);
	ck_assert_uint_eq(d.stats.failing, 1);
	ck_assert_uint_eq(d.stats.needs_left_out, 1);
	ck_assert_edges(&d, "3>0");
	ck_schedules_pass(&d);
	ck_assert_int_eq(ut_graph_write_json(&out, d.g), 0);
	ck_assert_ptr_nonnull(strstr(out.ptr, "\"needs_left_out\": true"));
	ck_assert_int_eq(ut_graph_read_json(&back, out.ptr, out.len, "graph.json"), 0);
	for (uint32_t t = 0; t < 4; t++)
		ck_assert_int_eq(back->tests[t].needs_left_out, t == 2);
	ut_graph_free(back);
	ut_buf_dispose(&out);
	dt_teardown(&d);
}
END_TEST

/* A test that fails on every k-th execution, for k from 3 (past the two original-order
 * runs) up: a failure that contradicts a pass with fewer tests before it is run again
 * (both schedules, until each shows one outcome twice: dispute.c), and a single
 * disagreement no longer leaves the test out. Whatever k, every included test's schedule
 * passes, and no other test gets a wrong prerequisite. */
START_TEST(a_late_flaky_failure_is_run_again)
{
	long retried = 0;

	for (long k = 3; k <= 8; k++) {
		dt d;

		/* every earlier test a candidate */
		dt_suite(&d, 5, "1>0 3>1 4>3", "1>0 2>0 2>1 3>0 3>1 3>2 4>0 4>1 4>2 4>3");
		d.s.flaky = 3;
		d.s.flaky_every = k;
		ck_assert_msg(detect(&d, "fast", 1, 1) == 0, "k=%ld: %s", k, ut_error_message());
		if (getenv("DSIM_VERBOSE")) {
			char got[512];

			manifest_edges(&d, got, sizeof(got));
			fprintf(stderr, "k=%ld flaky=%d retried=%ld runs=%ld %s\n", k,
				d.g->tests[3].flaky, d.stats.retried, d.stats.schedules_run, got);
		}
		retried += d.stats.retried;
		/* A failure nothing contradicts is believed (one run cannot tell a flake): it may
		 * add a prerequisite the flaky test does not need, never one to another test. */
		for (uint32_t t = 0; t < 5; t++)
			for (uint32_t p = 0; p < t; p++)
				ck_assert_msg(!manifest(&d, t, p) || t == 3 || truly_needs(&d.s, t, p),
					      "k=%ld: t%u -> t%u", k, t, p);
		ck_schedules_pass(&d);
		dt_teardown(&d);
	}
	ck_assert_int_gt(retried, 0);
}
END_TEST

/* Siblings: t4, t5 and t6 each need t2 (which needs t1, which needs t0), and string
 * analysis also proposes the independent t3 for each. They pass after their candidates
 * and are searched side by side: their probes without t2 and t3 ask the same of each, so
 * one run holds two or three of them, each after exactly the tests it may need there.
 * The graph stays exact, with every edge's failure shown and the schedules whole. */
START_TEST(siblings_share_a_run)
{
	dt d;
	size_t shared = 0;

	dt_suite(&d, 7, "1>0 2>1 4>2 5>2 6>2", "1>0 2>1 4>2 4>3 5>2 5>3 6>2 6>3");
	ck_assert_int_eq(detect(&d, "fast", 2, 0), 0);
	ck_assert_edges(&d, "1>0 2>1 4>2 5>2 6>2");
	ck_schedules_pass(&d);
	ck_certificates(&d);
	ck_assert_uint_eq(d.stats.verify_searched + d.stats.verify_added, 0);
	for (size_t r = 0; r < d.s.nlog; r++) {
		const sim_run *run = &d.s.log[r];

		shared += run->n >= 2 && run->sched[run->n - 2] >= 4;
	}
	ck_assert_uint_ge(shared, 1);
	dt_teardown(&d);
}
END_TEST

/* The batch of each journal line whose purpose holds `what`, in order, into batch[];
 * returns how many (at most max). */
static size_t batches_of(const dt *d, const char *what, long *batch, size_t max)
{
	FILE *f = fopen(d->path, "r");
	char line[4096];
	size_t n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		const char *b = strstr(line, "\"batch\":");

		if (strstr(line, what) && b && n < max)
			batch[n++] = strtol(b + 8, NULL, 10);
	}
	fclose(f);
	return n;
}

/* Confirmations that end another run: t2, t4 and t6 each need t0 and a test of their own
 * (t1, t3, t5), t7 needs t6. Confirming that t4 needs t3 (t0, then t4) can end the run
 * that confirms t2 needs t1 (t0, t2), and so on: fewer runs than edges to confirm. Every
 * edge still shows its dependent failing without it, with its other prerequisites passed,
 * as often as reruns 1 asks (twice), and the graph stays exact. */
START_TEST(confirmations_end_other_runs)
{
	const char *truth = "2>0 2>1 4>0 4>3 6>0 6>5 7>6";
	dt d;
	long batch[16];
	size_t ended;

	dt_suite(&d, 8, truth, truth);
	ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
	ck_assert_edges(&d, truth);
	ck_schedules_pass(&d);
	ck_certificates_at_least(&d, 2);
	ended = batches_of(&d, ", then confirm that t", batch, 16);
	ck_assert_msg(ended >= 1, "no confirmation ended another run");
	ck_assert_msg(d.stats.verify_runs < d.stats.verify_confirmed,
		      "%zu verification runs confirmed %zu edges", d.stats.verify_runs,
		      d.stats.verify_confirmed);
	dt_teardown(&d);
}
END_TEST

/* reruns 2 asks three failures of each edge: a confirmation at the end of another run
 * (the verification's or the search's) that the evidence store also records is one run,
 * counted once. On the suites of the two tests around this one. */
START_TEST(reruns_two_asks_three_failures)
{
	static const char *const truths[] = {
		"2>0 2>1 4>0 4>3 6>0 6>5 7>6",
		"1>0 2>1 3>2 4>3 5>4 6>5 7>6 8>7 9>8 10>9 11>5 12>8 13>10 14>10 15>13 16>14 "
		"17>0 18>17 19>16 20>0 21>20 22>12 23>22"};
	static const size_t sizes[] = {8, 24};

	for (size_t k = 0; k < 2; k++) {
		dt d;

		dt_suite(&d, sizes[k], truths[k], truths[k]);
		ck_assert_int_eq(detect(&d, "fast", 1, 2), 0);
		ck_assert_edges(&d, truths[k]);
		ck_schedules_pass(&d);
		ck_certificates_at_least(&d, 3);
		dt_teardown(&d);
	}
}
END_TEST

/* A confirmation that ends a run of the search: on the deep suite of the intermittent
 * cases, without flips, a test settled early wants its edges confirmed while later tests
 * are still searched, and a search run holding its schedule less a prerequisite (and not
 * that one) takes it at its end, one execution instead of a run of the verification's.
 * Each edge still shows its dependent failing without it, its other prerequisites passed,
 * twice (reruns 1), and the graph stays exact. */
START_TEST(confirmations_end_search_runs)
{
	static const char *const truth = "1>0 2>1 3>2 4>3 5>4 6>5 7>6 8>7 9>8 10>9 11>5 "
					 "12>8 13>10 14>10 15>13 16>14 17>0 18>17 19>16 "
					 "20>0 21>20 22>12 23>22";
	static const char *const cands = "1>0 2>1 3>2 4>3 5>4 6>5 7>6 8>7 9>8 10>9 11>5 "
					 "11>10 12>8 13>10 14>10 14>13 15>13 16>14 17>0 "
					 "18>17 18>0 19>16 20>0 21>20 22>12 23>22 23>21";
	dt d;
	FILE *f;
	char line[4096];
	size_t rides = 0;

	dt_suite(&d, 24, truth, cands);
	ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
	ck_assert_edges(&d, truth);
	ck_schedules_pass(&d);
	ck_certificates_at_least(&d, 2);
	f = fopen(d.path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		/* a search run's purpose starts with its owner's id, the verification's
		 * with "verify" or "confirm" */
		rides += strstr(line, "\"purpose\":\"t") &&
			 strstr(line, ", then confirm that t");
	}
	fclose(f);
	ck_assert_msg(rides >= 1, "no confirmation ended a search run");
	dt_teardown(&d);
}
END_TEST

/* t6 needs t1 and t2, which need nothing (the others are unrelated): the gallop's guess,
 * its two candidates (few among six earlier tests), passes, and neither of its tops needs the other. Each is left out alone, both
 * questions in one batch: two failures, each the proof of one direct prerequisite, in one
 * round where the binary search takes two. */
START_TEST(the_tops_are_asked_about_side_by_side)
{
	dt d;
	long batch[8];

	dt_suite(&d, 7, "6>1 6>2", "6>1 6>2");
	ck_assert_int_eq(detect(&d, "fast", 1, 0), 0);
	ck_assert_edges(&d, "6>1 6>2");
	ck_schedules_pass(&d);
	ck_certificates(&d);
	ck_assert_uint_eq(batches_of(&d, "without one top test", batch, 8), 2);
	ck_assert_int_eq(batch[0], batch[1]);
	dt_teardown(&d);
}
END_TEST

/* Every run detection made kept the original relative order of its tests (a schedule, a
 * probe, a re-run: ascending), so that a test that needs a later test not to have run
 * yet (an anti-dependency) is never run after it. */
static void ck_runs_in_order(const dt *d)
{
	for (size_t r = 0; r < d->s.nlog; r++) {
		for (size_t i = 1; i < d->s.log[r].n; i++)
			ck_assert_msg(d->s.log[r].sched[i - 1] < d->s.log[r].sched[i],
				      "run %zu: t%u before t%u", r + 1, d->s.log[r].sched[i - 1],
				      d->s.log[r].sched[i]);
	}
}

/* Issue 32: test 19 -> test 2 was made manifest on a run in which 19's other prerequisite
 * 17 had failed. Here t1 plays 2, t3 plays 17 (it needs t2, a first-use dialog dismissed)
 * and t4 plays 19 (it needs t1 and t3). Every run that fails t4 without t1 also lacks t2,
 * so t3 fails there too: such a run proves nothing of t1 (the proof rule), and the edge
 * t4 -> t1 needs a run where t3 passed. Whatever the seed of intermittent outcomes (1 in
 * 20), every manifest edge has a run where every other prerequisite it keeps passed. */
START_TEST(no_edge_on_a_run_where_a_kept_prerequisite_failed)
{
	for (uint64_t seed = 1; seed <= 12; seed++) {
		dt d;

		dt_suite(&d, 5, "1>0 3>2 4>1 4>3", "1>0 4>1 4>3");
		d.s.flip_every = 20;
		d.s.seed = seed * 0x9E3779B97F4A7C15ull;
		ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
		ck_certificates(&d);
		ck_runs_in_order(&d);
		dt_teardown(&d);
	}
}
END_TEST

/* Whether the transitive closure of the manifest edges is the truth's (what the bench
 * calls exact: a direct edge the closure implies is no error). */
static bool closure_exact(const dt *d)
{
	ut_scheduler sch;
	uint32_t *v = NULL;
	size_t n, cap = 0;
	bool ok = true;

	ck_assert_int_eq(ut_scheduler_init(&sch, d->g), 0);
	for (uint32_t t = 0; t < d->g->ntests; t++) {
		bool in[SIM_MAX] = {false};

		n = 0;
		ck_assert_int_eq(ut_scheduler_of(&sch, t, &v, &n, &cap), 0);
		for (size_t i = 0; i + 1 < n; i++)
			in[v[i]] = true;
		for (uint32_t p = 0; p < t; p++)
			ok = ok && in[p] == truly_needs(&d->s, t, p);
	}
	free(v);
	ut_scheduler_dispose(&sch);
	return ok;
}

/* Whether every included test's schedule passes in the truth (ck_schedules_pass). */
static bool schedules_pass(const dt *d)
{
	ut_scheduler sch;
	uint32_t *v = NULL;
	size_t n, cap = 0;
	bool ok = true;

	ck_assert_int_eq(ut_scheduler_init(&sch, d->g), 0);
	for (uint32_t t = 0; t < d->g->ntests; t++) {
		if (d->g->tests[t].flaky || d->g->tests[t].failing)
			continue;
		n = 0;
		ck_assert_int_eq(ut_scheduler_of(&sch, t, &v, &n, &cap), 0);
		ok = ok && sim_passes(&d->s, v, n);
	}
	free(v);
	ut_scheduler_dispose(&sch);
	return ok;
}

/* Intermittent outcomes (each execution flipped with chance 1 in 20, seeded): a failure
 * that contradicts a pass, or a pass that contradicts a failure, is run again before it
 * decides; a pass that did not hold sends its test back to the search; once outcomes
 * disagreed, each manifest edge's failure and each test's schedule is confirmed. The
 * closure stays exact and every test's schedule passes, for every seed whose runs
 * disagreed once (a detection that never saw two outcomes disagree cannot tell an
 * intermittent pass from a real one; on suites of real size some always do). */
START_TEST(intermittent_outcomes_give_the_exact_graph)
{
	static const char *const suites[][2] = {
	    {"1>0 2>0 3>1", "1>0 2>0 2>1 3>2"},
	    {"1>0 2>0 3>2 4>1 4>3", "1>0 2>0 3>1 3>2 4>1 4>3"},
	    {"1>0 2>1 4>2 5>2 6>2", "1>0 2>1 4>2 4>3 5>2 5>3 6>2 6>3"},
	};
	size_t disputes = 0, unseen = 0, wrong = 0;

	for (size_t k = 0; k < 3; k++) {
		for (uint64_t seed = 1; seed <= 10; seed++) {
			dt d;
			char got[512], what[600];

			dt_suite(&d, k == 2 ? 7 : k == 1 ? 5 : 4, suites[k][0], suites[k][1]);
			d.s.flip_every = 20;
			d.s.seed = seed * 0x9E3779B97F4A7C15ull;
			ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
			manifest_edges(&d, got, sizeof(got));
			if (getenv("DSIM_VERBOSE"))
				fprintf(stderr, "suite %zu seed %llu: %s (runs %ld, disputes %zu, "
					"flaky %zu failing %zu)\n", k, (unsigned long long)seed, got,
					d.stats.schedules_run, d.stats.disputes, d.stats.flaky,
					d.stats.failing);
			snprintf(what, sizeof(what), "suite %zu seed %llu: %s", k,
				 (unsigned long long)seed, got);
			ck_runs_in_order(&d);
			if (!d.stats.retried) {
				/* no two outcomes disagreed: nothing told an intermittent pass
				 * from a real one, and single runs decided */
				unseen++;
				dt_teardown(&d);
				continue;
			}
			if (!closure_exact(&d) || d.stats.flaky + d.stats.failing ||
			    !schedules_pass(&d)) {
				wrong++;
				fprintf(stderr, "intermittent: wrong graph, %s (flaky %zu, "
					"failing %zu)\n", what, d.stats.flaky, d.stats.failing);
			}
			ck_runs_in_order(&d);
			disputes += d.stats.disputes;
			dt_teardown(&d);
		}
	}
	ck_assert_uint_gt(disputes, 0);
	ck_assert_uint_le(unseen, 10); /* of 30 */
	/* every seed: an edge needs confirming failures besides the one the search decided
	 * on (a seed once kept 3 -> 0 on two intermittent failures of its very schedule) */
	ck_assert_msg(wrong == 0, "%zu wrong graphs of %zu", wrong, 30 - unseen);
}
END_TEST

/* Whether a detection of the deep suite below with 1 flip in 20 on the given seed and
 * workers gives the exact closure, nothing left out and every schedule passing. */
static bool deep_suite_exact(uint64_t seed, int workers)
{
	static const char *const truth = "1>0 2>1 3>2 4>3 5>4 6>5 7>6 8>7 9>8 10>9 11>5 "
					 "12>8 13>10 14>10 15>13 16>14 17>0 18>17 19>16 "
					 "20>0 21>20 22>12 23>22";
	static const char *const cands = "1>0 2>1 3>2 4>3 5>4 6>5 7>6 8>7 9>8 10>9 11>5 "
					 "11>10 12>8 13>10 14>10 14>13 15>13 16>14 17>0 "
					 "18>17 18>0 19>16 20>0 21>20 22>12 23>22 23>21";
	dt d;
	char got[512];
	bool ok;

	dt_suite(&d, 24, truth, cands);
	d.s.flip_every = 20;
	d.s.seed = seed * 0x9E3779B97F4A7C15ull;
	ck_assert_int_eq(detect(&d, "fast", workers, 1), 0);
	ok = closure_exact(&d) && !(d.stats.flaky + d.stats.failing) && schedules_pass(&d);
	if (!ok) {
		manifest_edges(&d, got, sizeof(got));
		fprintf(stderr, "deep suite, seed %llu: %s (flaky %zu, failing %zu, runs %ld)\n",
			(unsigned long long)seed, got, d.stats.flaky, d.stats.failing,
			d.stats.schedules_run);
	}
	ck_runs_in_order(&d);
	dt_teardown(&d);
	return ok;
}

/* Intermittent outcomes on a suite shaped like the real ones (issue 32, the real shapes'
 * bench with 1 flip in 20): a chain ten tests deep with tests hanging off it, so that a
 * probe holds many tests and often loses its answer to an earlier test's flip, and a test
 * runs dozens of times. Each of these left a test out or kept a wrong edge on some seed:
 * a failure of one schedule twice in a row by chance taken for a test that is not
 * monotone (held for good); a test settled on a pass after a test outside the tests it
 * may need that failed there (no failure disputes such a pass); the verification
 * counting its own run twice (one pass of a schedule for the two reruns 1 asks for) and
 * an edge confirmed by the search's own failure and one more; a long probe given up
 * after nine runs without an answer. Every seed: the exact closure, nothing left out,
 * every schedule passing in the truth. */
START_TEST(intermittent_outcomes_on_a_deep_suite)
{
	size_t wrong = 0;

	for (uint64_t seed = 1; seed <= 12; seed++)
		wrong += !deep_suite_exact(seed, seed % 2 ? 1 : 4);
	ck_assert_msg(wrong == 0, "%zu wrong graphs of 12", wrong);
}
END_TEST

/* Seeds of the deep suite that left tests out (issue 32, session 19; 18 of seeds 1 to 200
 * with one worker before, 8 after, the others not from these causes):
 * - the original order's confirmation counted each failure of a test as a vote against
 *   its pass, even one after an earlier test that failed there (the proof rule: it says
 *   nothing of the test); with two intermittent failures of its reruns the test was
 *   confirmed failing and left out (seeds 23, 29, 32, 69, 80);
 * - a pass the reruns confirmed was not stored when another pass said more (the same
 *   test alone, a pass by chance); the dispute that refuted that one left no pass at all,
 *   and one intermittent failure after every earlier test left the test out as flaky
 *   (seeds 9 and 31). */
START_TEST(intermittent_outcomes_on_a_deep_suite_more_seeds)
{
	static const uint64_t seeds[] = {9, 23, 29, 31, 32, 69, 80};
	size_t wrong = 0;

	for (size_t i = 0; i < sizeof(seeds) / sizeof(*seeds); i++)
		wrong += !deep_suite_exact(seeds[i], 1);
	ck_assert_msg(wrong == 0, "%zu wrong graphs of %zu", wrong, sizeof(seeds) / sizeof(*seeds));
}
END_TEST

/* A test that failed in both runs of the original order by chance (two flips in a row,
 * 1 in 400 per test with 1 flip in 20; on the real shapes PPMA lost 8 tests to it, with 1
 * and with 4 workers): its reruns confirm it passes, and the failure after every earlier
 * test those two runs left must leave the store with them. Kept there (one vote short of
 * dropping), it answered the search's last question, after every earlier test, with a
 * failure: the test was left out as flaky, and every test that needs it as failing. The
 * seeds are those whose flips hit t1's first two executions (the original order's, with
 * one worker) and none of its next four, and one of t5's first two (else no outcomes
 * disagreed, and two failures of the original order leave t1 out as failing, rightly). */
START_TEST(a_test_failing_twice_in_the_original_order_by_chance)
{
	size_t tried = 0;

	for (uint64_t seed = 1; tried < 3 && seed < 1000000; seed++) {
		uint64_t s = seed * 0x9E3779B97F4A7C15ull;
		bool fits = sim_flipped(s, 1, 1, 20) && sim_flipped(s, 1, 2, 20);
		dt d;
		char got[512];

		for (long n = 3; fits && n <= 6; n++)
			fits = !sim_flipped(s, 1, n, 20);
		/* and t5 flips in one of the two: outcomes disagreed, t1 is confirmed */
		fits = fits && sim_flipped(s, 5, 1, 20) != sim_flipped(s, 5, 2, 20);
		if (!fits)
			continue;
		tried++;
		dt_suite(&d, 6, "1>0 2>1 3>2 4>1 5>0", "1>0 2>1 3>2 3>1 4>1 5>0 5>4");
		d.s.flip_every = 20;
		d.s.seed = s;
		ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
		manifest_edges(&d, got, sizeof(got));
		ck_assert_msg(d.stats.flaky + d.stats.failing == 0 && closure_exact(&d) &&
				      schedules_pass(&d),
			      "seed %llu: %s (flaky %zu, failing %zu)", (unsigned long long)seed,
			      got, d.stats.flaky, d.stats.failing);
		ck_runs_in_order(&d);
		dt_teardown(&d);
	}
	ck_assert_uint_eq(tried, 3);
}
END_TEST

/* A failure that decides an edge is confirmed even while every outcome agreed (issue 32,
 * DokuWiki: register, create, edit failed once at the edit, 1 run in 3 by hand; run 18,
 * with the anonymous read before the edit, passed, and that single failure made the read
 * a prerequisite of the edit). The shape: 0 registers, 1 creates the page, 2 reads it, 3
 * edits it, 4 counts its revisions; the edit fails 1 in 8 of its turns at random. No seed
 * whose outcomes all agreed may give the edit the read as a prerequisite: 5 of these 60 did
 * while one failure decided an edge. (Seed 2 still does, with outcomes that disagreed: its
 * draws fail the edit after the create 5 times in 11, the dispute reaches its reruns' cap
 * undecided, and the edge stays, which keeps the schedules safe.) */
START_TEST(a_deciding_failure_is_confirmed_while_outcomes_agree)
{
	size_t extra = 0, steady = 0;

	for (uint64_t seed = 1; seed <= 60; seed++) {
		dt d;
		char got[512];

		dt_suite(&d, 5, "1>0 2>1 3>0 3>1 4>3", "1>0 2>1 2>0 3>0 3>1 3>2 4>1 4>3 4>2");
		d.s.intermittent[3] = 8;
		d.s.seed = seed * 0x9E3779B97F4A7C15ull;
		ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
		steady += d.stats.disputes == 0;
		if (d.stats.disputes == 0 && (manifest(&d, 3, 2) || manifest(&d, 4, 2))) {
			manifest_edges(&d, got, sizeof(got));
			fprintf(stderr, "seed %llu: %s (disputes %zu, runs %ld)\n",
				(unsigned long long)seed, got, d.stats.disputes, d.stats.schedules_run);
			extra++;
		}
		ck_runs_in_order(&d);
		dt_teardown(&d);
	}
	ck_assert_msg(extra == 0, "%zu of the seeds whose outcomes agreed made the read a "
		      "prerequisite", extra);
	ck_assert_msg(steady > 0, "every seed saw outcomes disagree: the case is not tested");
}
END_TEST

/* The disputes are journaled like every run: a detection with intermittent outcomes,
 * resumed from its journal, replays every run (re-runs included) and decides the same
 * graph without running anything. */
START_TEST(disputes_replay_from_the_journal)
{
	size_t disputes = 0;

	for (uint64_t seed = 1; seed <= 4; seed++) {
		dt d;
		char first[512], again[512];
		ut_journal_header h = {.suite = "sim", .strategy = "fast", .extract = "x",
				       .filter = "y", .reruns = 1, .ntests = 5, .ids = NULL};
		ut_journal *j = NULL;
		long runs;
		size_t nlog;

		dt_suite(&d, 5, "1>0 2>0 3>2 4>1 4>3", "1>0 2>0 3>1 3>2 4>1 4>3");
		d.s.flip_every = 20;
		d.s.seed = seed * 0x9E3779B97F4A7C15ull;
		ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
		manifest_edges(&d, first, sizeof(first));
		runs = d.stats.schedules_run;
		nlog = d.s.nlog;
		for (size_t i = 0; i < d.g->edges.n; i++) /* back to the candidates */
			d.g->edges.v[i].status = UT_EDGE_CANDIDATE;
		for (size_t t = 0; t < 5; t++)
			d.g->tests[t].flaky = d.g->tests[t].failing = false;
		h.ids = d.ids;
		ck_assert_int_eq(ut_journal_open(&j, d.path, &h, UT_JOURNAL_RESUME), 0);
		ck_assert_int_eq(ut_detect_run(d.g, NULL, j, &d.opts, &d.stats), 0);
		ut_journal_close(j);
		manifest_edges(&d, again, sizeof(again));
		ck_assert_str_eq(again, first);
		ck_assert_uint_eq(d.s.nlog, nlog); /* nothing ran */
		ck_assert_int_eq(d.stats.replayed, runs);
		disputes += d.stats.disputes;
		dt_teardown(&d);
	}
	ck_assert_uint_gt(disputes, 0);
}
END_TEST

/* A pair that is not monotone: t3 fails after t1 unless t2 ran too (a page t1 protects,
 * a user t2 promotes). t4 needs t1 and t3; t3 alone passes. t4's probe that holds t1 and
 * t3 without t2 fails at t3: that failure after more tests than t3 passed after is run
 * again, both hold, both records stay, and t3 is not taken for flaky. t4, whose runs
 * cannot tell what it needs while t3 fails before it, is left out (failing) rather than
 * given a prerequisite no run proves; every schedule of the graph passes in the truth. */
START_TEST(a_pair_that_is_not_monotone)
{
	dt d;

	dt_suite(&d, 5, "4>1 4>3", "4>1 4>3 3>1");
	sim_breaks(&d.s, 3, 1, 2);
	ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
	if (getenv("DSIM_VERBOSE")) {
		char got[512];

		manifest_edges(&d, got, sizeof(got));
		fprintf(stderr, "not monotone: %s (runs %ld, disputes %zu, not monotone %zu)\n",
			got, d.stats.schedules_run, d.stats.disputes, d.stats.not_monotone);
	}
	ck_assert_uint_ge(d.stats.not_monotone, 1);
	ck_assert(!d.g->tests[3].flaky && !d.g->tests[3].failing);
	ck_assert_uint_eq(d.stats.flaky, 0);
	ck_schedules_pass(&d);
	ck_certificates(&d);
	ck_runs_in_order(&d);
	dt_teardown(&d);
}
END_TEST

/* The non-monotone triple that matters (issue 32): t3 fails after t1 unless t2 ran too,
 * and a schedule of the graph holds t1 and t3: that of t4, which needs both (t1 in a
 * dependent's closure), or t3's own when it needs t1 itself. Each schedule must pass, so
 * t3 needs t2 there: the search finds that from the failure at t3 (nothing tells it), and
 * the graph is the truth with t3 -> t2, with 1 and 4 workers. */
START_TEST(a_triple_that_matters_gives_its_rescuer)
{
	static const char *const suites[][3] = {
		{"3>0 4>1 4>3", "4>1 4>3", "3>0 3>2 4>1 4>3"}, /* t1 in t4's closure */
		{"4>1 4>3", "", "3>2 4>1 4>3"},		/* no candidates at all */
		{"3>1 4>3", "3>1 4>3", "3>1 3>2 4>3"},		/* t1 in t3's own */
	};

	for (size_t k = 0; k < sizeof(suites) / sizeof(*suites); k++) {
		for (int workers = 1; workers <= 4; workers += 3) {
			dt d;

			dt_suite(&d, 5, suites[k][0], suites[k][1]);
			sim_breaks(&d.s, 3, 1, 2);
			ck_assert_int_eq(detect(&d, "fast", workers, 1), 0);
			if (getenv("DSIM_VERBOSE")) {
				char got[512];

				manifest_edges(&d, got, sizeof(got));
				fprintf(stderr, "triple %zu, %d workers: %s (runs %ld)\n", k,
					workers, got, d.stats.schedules_run);
			}
			ck_assert_edges(&d, suites[k][2]);
			for (uint32_t t = 0; t < 5; t++)
				ck_assert(!d.g->tests[t].flaky && !d.g->tests[t].failing);
			ck_schedules_pass(&d);
			ck_certificates(&d);
			ck_runs_in_order(&d);
			dt_teardown(&d);
		}
	}
}
END_TEST

/* The same triple with 1 execution in 10 flipped at random (issue 32): the rescue must
 * still give t3 -> t2 once outcomes were intermittent, from the failure after t1 that a
 * dispute held (rerun until it showed its outcome 2 (reruns + 1) times more often), not
 * from a failure merely learnt after a held pass. Before, no rescue began once an outcome
 * was intermittent: seed 40 lost t3 -> t2. Seeds whose flips left a test out (7, 24 and
 * 36 of these 40: flaky at this rate) do not count; at least 30 must. */
START_TEST(a_triple_among_intermittent_outcomes_gives_its_rescuer)
{
	size_t tried = 0, wrong = 0;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		dt d;
		char got[512];

		dt_suite(&d, 5, "3>0 4>1 4>3", "4>1 4>3");
		sim_breaks(&d.s, 3, 1, 2);
		d.s.flip_every = 10;
		d.s.seed = seed * 0x9E3779B97F4A7C15ull;
		ck_assert_int_eq(detect(&d, "fast", 1, 1), 0);
		if (d.stats.flaky || d.stats.failing) {
			dt_teardown(&d);
			continue;
		}
		tried++;
		if (!manifest(&d, 3, 2) || !manifest(&d, 4, 3) || !manifest(&d, 4, 1) ||
		    !manifest(&d, 3, 0)) {
			manifest_edges(&d, got, sizeof(got));
			fprintf(stderr, "triple among intermittent outcomes, seed %llu: %s (runs "
				"%ld, disputes %zu)\n", (unsigned long long)seed, got,
				d.stats.schedules_run, d.stats.disputes);
			wrong++;
		}
		ck_schedules_pass(&d);
		ck_runs_in_order(&d);
		dt_teardown(&d);
	}
	ck_assert_msg(tried >= 30, "only %zu seeds left no test out", tried);
	ck_assert_msg(wrong == 0, "%zu of %zu seeds without t3's rescuer", wrong, tried);
}
END_TEST

/* MantisBT's triple in small (tests below): t7 passes alone but fails after t1 unless t2
 * ran, t8 needs t1 and t7, candidates t8 -> t1 and t8 -> t7; t7 fails once by chance in
 * its run after exactly the tests of `after` (a bit each; 0: never) once `skip` such runs
 * passed. Detected with 1 worker and detect.reruns 1. */
static void late_rescue(dt *d, uint32_t after, long skip)
{
	dt_suite(d, 9, "8>1 8>7", "8>1 8>7");
	sim_breaks(&d->s, 7, 1, 2);
	if (after) {
		d->s.glitch = 7;
		d->s.glitch_after = after;
		d->s.glitch_skip = skip;
	}
	ck_assert_int_eq(detect(d, "fast", 1, 1), 0);
	ck_assert_msg(!after || d->s.glitch == -1, "t7's run after 0x%x did not happen", after);
}

/* Whether late_rescue's detection gave the truth with t7 -> t2, nothing left out and no
 * test sent back to the search by the verification; says what it gave when not. */
static bool rescued_right(const dt *d, const char *what)
{
	char got[512];

	if (manifest(d, 7, 2) && manifest(d, 8, 7) && manifest(d, 8, 1) && !d->stats.flaky &&
	    !d->stats.failing && !d->stats.verify_searched)
		return true;
	manifest_edges(d, got, sizeof(got));
	fprintf(stderr, "%s: %s, %zu flaky, %zu failing, %zu searched again\n", what, got,
		d->stats.flaky, d->stats.failing, d->stats.verify_searched);
	return false;
}

/* The distinct sets of tests (a bit each) that t ran after in d's runs, holding every
 * test of `with` (a bit each) but not every earlier test: *n of them in out. */
static void sets_before(const dt *d, uint32_t t, uint32_t with, uint32_t *out, size_t *n,
			size_t cap)
{
	uint32_t all = (1u << t) - 1;

	*n = 0;
	for (size_t r = 0; r < d->s.nlog; r++) {
		const sim_run *run = &d->s.log[r];
		uint32_t before = 0;
		size_t i, k;

		for (i = 0; i < run->n && run->sched[i] != t; i++)
			before |= 1u << run->sched[i];
		if (i == run->n || (before & with) != with || before == all)
			continue;
		for (k = 0; k < *n && out[k] != before; k++)
			;
		if (k == *n && *n < cap)
			out[(*n)++] = before;
	}
}

/* MantisBT's shape with 1 flip in 20 (seed 2 of the real bench): the rescue asked whether
 * t passes after what it failed after, its rescuer and one more test; t failed there by
 * chance, the binary search took the next test for the rescuer, and t ended left out
 * with its dependent. Here t7 passes alone but fails after t1 unless t2 ran, and t8
 * needs t1 and t7: t7's rescue searches t0, t2, ..., t6, and only its probes hold t0 with
 * t1 and t2 (no test needs t0). For each of them, the same detection (deterministic up to
 * there) with t7 failing once by chance after that probe's tests. Once outcomes
 * disagreed, a failure decides a step of the rescue when reruns + 1 runs showed it: t7 ->
 * t2 is found by the rescue itself, not by the verification's repair of a wrong rescuer
 * (before, each such failure cost a wrong edge, its removal and a search again). */
START_TEST(a_rescue_is_not_misled_by_one_chance_failure)
{
	uint32_t sets[64];
	size_t n, wrong = 0;
	dt d;

	late_rescue(&d, 0, 0);
	ck_assert(manifest(&d, 7, 2));
	sets_before(&d, 7, 7u, sets, &n, 64);
	dt_teardown(&d);
	ck_assert_msg(n >= 2, "%zu probes of t7's rescue after t0, t1 and t2", n);
	for (size_t k = 0; k < n; k++) {
		char what[128];

		late_rescue(&d, sets[k], 0);
		snprintf(what, sizeof(what), "one chance failure of t7 after 0x%x", sets[k]);
		wrong += !rescued_right(&d, what);
		ck_schedules_pass(&d);
		ck_runs_in_order(&d);
		dt_teardown(&d);
	}
	ck_assert_msg(wrong == 0, "%zu of %zu chance failures misled the rescue", wrong, n);
}
END_TEST

/* Runs in d's log in which t ran after exactly the tests of `before` (a bit each). */
static size_t runs_after(const dt *d, uint32_t t, uint32_t before)
{
	size_t k = 0;

	for (size_t r = 0; r < d->s.nlog; r++) {
		const sim_run *run = &d->s.log[r];
		uint32_t b = 0;

		for (size_t i = 0; i < run->n; i++) {
			if (run->sched[i] == t && b == before)
				k++;
			b |= 1u << run->sched[i];
		}
	}
	return k;
}

/* The same shape: t7's own schedule (t2, its rescuer, then t7) fails once by chance in
 * one of its last runs, after it passed whole. Once outcomes disagreed, a schedule that
 * passed whole reruns + 1 times is run again, not sent back to the search (MantisBT with
 * 4 workers and 1 flip in 20: the rescued test, searched again, lost its rescuer for good
 * and was left out with its dependent). */
START_TEST(a_proven_schedule_outlives_one_chance_failure)
{
	size_t n, wrong = 0;
	dt d;

	late_rescue(&d, 0, 0);
	ck_assert(manifest(&d, 7, 2));
	n = runs_after(&d, 7, 1u << 2);
	dt_teardown(&d);
	ck_assert_msg(n >= 3, "t7 ran %zu times after t2 alone", n);
	for (size_t skip = n - 2; skip < n; skip++) {
		char what[128];

		late_rescue(&d, 1u << 2, (long)skip);
		snprintf(what, sizeof(what), "t7 failing by chance in its run %zu of %zu after t2",
			 skip + 1, n);
		wrong += !rescued_right(&d, what);
		ck_schedules_pass(&d);
		ck_runs_in_order(&d);
		dt_teardown(&d);
	}
	ck_assert_msg(wrong == 0, "%zu chance failures of a proven schedule sent it back", wrong);
}
END_TEST

/* The shop example's shape (examples/shop/truth.json, 0-based): t12 counts the products
 * t1 and t2 add, fails after t10 archives one unless t11 restores it; nothing needs t10,
 * t11 or t12, so no schedule holds t10 and t12 and the triple does not matter: the graph
 * is the truth's, without t12 -> t11 (EXPECTED.md; session 18's cost change added it on
 * the real browser), whatever candidates lead probes to hold t10 and t12. */
START_TEST(a_triple_that_does_not_matter_gives_nothing)
{
	static const char *const truth = "1>0 2>0 4>3 5>1 6>4 7>1 7>4 8>7 9>8 10>2 11>0 12>1 "
					 "12>2 13>3";
	static const char *const cands[] = {
		"4>3 5>1 6>4 7>1 7>4 8>7 9>8 10>2 13>3",
		"4>3 5>1 6>4 7>1 7>4 8>7 9>8 10>2 13>3 11>10 12>10 13>10",
		"4>3 5>1 6>4 7>1 7>4 8>7 9>8 10>2 13>3 13>12 13>10 13>2 13>1",
		"13>12 13>10 13>11 13>2 13>1 13>0",
		"",
	};

	for (size_t k = 0; k < sizeof(cands) / sizeof(*cands); k++) {
		for (int workers = 1; workers <= 4; workers += 3) {
			dt d;

			dt_suite(&d, 14, truth, cands[k]);
			sim_breaks(&d.s, 12, 10, 11);
			ck_assert_int_eq(detect(&d, "fast", workers, 1), 0);
			if (getenv("DSIM_VERBOSE")) {
				char got[512];

				manifest_edges(&d, got, sizeof(got));
				fprintf(stderr, "shop %zu, %d workers: %s (runs %ld, not monotone "
					"%zu)\n", k, workers, got, d.stats.schedules_run,
					d.stats.not_monotone);
			}
			ck_assert_edges(&d, "1>0 2>0 4>3 5>1 6>4 7>1 7>4 8>7 9>8 10>2 11>0 12>1 "
					    "12>2 13>3");
			ck_schedules_pass(&d);
			dt_teardown(&d);
		}
	}
}
END_TEST

/* The one schedule function as detect uses it: less one direct prerequisite (kept when
 * another prerequisite needs it), and without the flaky rule of the commands. */
START_TEST(schedules_without_a_prerequisite)
{
	ut_scheduler sch;
	dt d;
	uint32_t *v = NULL;
	size_t n = 0, cap = 0;

	dt_suite(&d, 5, "", "1>0 2>0 3>1 4>1 4>3");
	d.g->tests[2].flaky = true;
	ck_assert_int_eq(ut_scheduler_init_active(&sch, d.g), 0);
	ck_assert_int_eq(ut_scheduler_without(&sch, 4, 3, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 3); /* 0 1 4 */
	ck_assert(v[0] == 0 && v[1] == 1 && v[2] == 4);
	n = 0;
	ck_assert_int_eq(ut_scheduler_without(&sch, 4, 1, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 4); /* 1 stays: 3 needs it */
	ck_assert(v[0] == 0 && v[1] == 1 && v[2] == 3 && v[3] == 4);
	n = 0;
	ck_assert_int_eq(ut_scheduler_of(&sch, 2, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 2); /* detect: the flaky test's own edges, not every earlier test */
	ut_scheduler_dispose(&sch);
	ck_assert_int_eq(ut_scheduler_init(&sch, d.g), 0);
	n = 0;
	ck_assert_int_eq(ut_scheduler_of(&sch, 2, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 3); /* the commands: every earlier test */
	ut_scheduler_dispose(&sch);
	free(v);
	dt_teardown(&d);
}
END_TEST

/* Runs sched (n tests) through the simulated runner; its outcomes as 'p'/'f' in out. */
static void sim_outcomes(dt *d, const uint32_t *sched, size_t n, char *out)
{
	ut_run_result r;

	ck_assert_int_eq(sim_run_schedule(&d->s, 0, d->ids, sched, n, &r), 0);
	for (size_t i = 0; i < n; i++)
		out[i] = r.tests[i].outcome == UT_OUT_PASS ? 'p' : 'f';
	out[n] = '\0';
	ut_run_result_dispose(&r);
}

/* The non-monotone pair of issue 32 (tests/sim/sim.h): 3 passes after {0}, fails after
 * {0, 1} (1 protects a page), and passes after {0, 1, 2} (2 promotes the user). */
START_TEST(sim_non_monotone_pair)
{
	const uint32_t a[] = {0, 3}, b[] = {0, 1, 3}, c[] = {0, 1, 2, 3}, e[] = {1, 2, 3};
	char o[8];
	dt d;

	dt_suite(&d, 4, "3>0", "");
	sim_breaks(&d.s, 3, 1, 2);
	sim_outcomes(&d, a, 2, o);
	ck_assert_str_eq(o, "pp");
	sim_outcomes(&d, b, 3, o);
	ck_assert_str_eq(o, "ppf");
	sim_outcomes(&d, c, 4, o);
	ck_assert_str_eq(o, "pppp");
	sim_outcomes(&d, e, 3, o);
	ck_assert_str_eq(o, "ppf"); /* its prerequisite first */
	ck_assert(sim_passes(&d.s, a, 2) && !sim_passes(&d.s, b, 3) && sim_passes(&d.s, c, 4));
	dt_teardown(&d);
}
END_TEST

/* Intermittent failures (1 in 20) come from the seed and the turn alone: about 1 in 20,
 * the same sequence again for the same seed, another for another seed, and never counted
 * in the truth. */
START_TEST(sim_intermittent_is_seeded)
{
	const uint32_t one[] = {0};
	char seq[3][401], o[2];
	size_t fails = 0;

	for (int k = 0; k < 3; k++) {
		dt d;

		dt_setup(&d, 1);
		sim_intermittent(&d.s, 0, 20);
		d.s.seed = k == 2 ? 8 : 7;
		for (size_t i = 0; i < 400; i++) {
			sim_outcomes(&d, one, 1, o);
			seq[k][i] = o[0];
			fails += k == 0 && o[0] == 'f';
		}
		seq[k][400] = '\0';
		ck_assert(sim_passes(&d.s, one, 1));
		dt_teardown(&d);
	}
	ck_assert_msg(fails >= 8 && fails <= 40, "%zu failures in 400 turns", fails);
	ck_assert_str_eq(seq[0], seq[1]);
	ck_assert_str_ne(seq[0], seq[2]);
}
END_TEST

Suite *detect_sim_suite(void)
{
	Suite *s = suite_create("detect-sim");
	TCase *tc = tcase_create("strategies");

	tcase_add_test(tc, fast_does_not_blame_one_of_several_left_out);
	tcase_add_test(tc, fast_on_workers_gives_the_same_graph);
	tcase_add_test(tc, tedd_inversion_that_does_not_invert);
	tcase_add_test(tc, fast_on_the_tedd_case);
	tcase_add_test(tc, both_recover_a_missing_edge);
	tcase_add_test(tc, a_flaky_test_is_left_out);
	tcase_add_test(tc, a_test_that_needs_a_flaky_one_says_so);
	tcase_add_test(tc, reruns_two_asks_three_failures);
	tcase_add_test(tc, a_run_where_nothing_ran_is_run_again);
	tcase_add_test(tc, a_late_flaky_failure_is_run_again);
	tcase_add_test(tc, no_edge_on_a_run_where_a_kept_prerequisite_failed);
	tcase_add_test(tc, a_pair_that_is_not_monotone);
	suite_add_tcase(s, tc);
	tc = tcase_create("intermittent"); /* 30 detections: under ASan, seconds */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, intermittent_outcomes_give_the_exact_graph);
	tcase_add_test(tc, disputes_replay_from_the_journal);
	tcase_add_test(tc, intermittent_outcomes_on_a_deep_suite);
	tcase_add_test(tc, intermittent_outcomes_on_a_deep_suite_more_seeds);
	tcase_add_test(tc, a_test_failing_twice_in_the_original_order_by_chance);
	tcase_add_test(tc, a_deciding_failure_is_confirmed_while_outcomes_agree);
	suite_add_tcase(s, tc);
	tc = tcase_create("schedules");
	tcase_add_test(tc, siblings_share_a_run);
	tcase_add_test(tc, confirmations_end_other_runs);
	tcase_add_test(tc, confirmations_end_search_runs);
	tcase_add_test(tc, the_tops_are_asked_about_side_by_side);
	tcase_add_test(tc, schedules_without_a_prerequisite);
	suite_add_tcase(s, tc);
	tc = tcase_create("faults");
	tcase_add_test(tc, a_triple_that_matters_gives_its_rescuer);
	tcase_add_test(tc, a_triple_among_intermittent_outcomes_gives_its_rescuer);
	tcase_add_test(tc, a_rescue_is_not_misled_by_one_chance_failure);
	tcase_add_test(tc, a_proven_schedule_outlives_one_chance_failure);
	tcase_add_test(tc, a_triple_that_does_not_matter_gives_nothing);
	tcase_add_test(tc, sim_non_monotone_pair);
	tcase_add_test(tc, sim_intermittent_is_seeded);
	suite_add_tcase(s, tc);
	return s;
}
