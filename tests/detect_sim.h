/* detect_sim.h: the simulated runner run in-process for detection's unit tests, through
 * ut_detect_opts.run: a suite of n tests with hidden true prerequisites and faults. What a
 * test does in a schedule is decided by tests/sim/sim.h, the behaviour the benchmarks'
 * simrun shares: it passes iff each of its true prerequisites ran and passed earlier in the
 * same schedule, unless a non-monotone pair breaks it or it is on a flaky or intermittent
 * turn. Every run is logged, so a test can check what detection ran as well as what it
 * concluded. */
#ifndef UT_TESTS_DETECT_SIM_H
#define UT_TESTS_DETECT_SIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "detect/detect.h"
#include "sim/sim.h"

#define SIM_MAX 32 /* tests in a simulated suite */

/* One run as the simulated runner saw it. */
typedef struct {
	uint32_t sched[SIM_MAX];
	unsigned char passed[SIM_MAX]; /* parallel to sched */
	size_t n;
} sim_run;

typedef struct {
	size_t n;
	bool need[SIM_MAX][SIM_MAX]; /* need[t][p]: p is a true prerequisite of t */
	long flaky;                  /* a test that fails on every flaky_every-th turn, -1 none */
	long flaky_every;
	long intermittent[SIM_MAX];  /* per test: fails 1 in N turns at random; 0 never */
	uint64_t seed;               /* of the intermittent failures (sim_draw) */
	long broken_by[SIM_MAX];     /* per test: non-monotone pair (sim_breaks), -1 none */
	long unless[SIM_MAX];
	long turns[SIM_MAX];         /* turns per test so far (sim.h, step 3) */
	long flip_every;             /* each execution's outcome flipped 1 in flip_every
				      * (sim_flipped, from seed); 0 none */
	long execs[SIM_MAX];         /* executions per test so far */
	long glitch;                 /* a test that fails once by chance, -1 none: its
				      * execution after exactly the tests of glitch_after (a
				      * bit each, whatever their outcomes) once glitch_skip
				      * such executions passed by */
	uint32_t glitch_after;
	long glitch_skip;
	long crash_run;              /* the run (1-based, in execution order) in which no test runs:
				      * every one reported not-run, as when mocha's beforeEach fails
				      * before the first test (a browser that did not answer); 0 none */
	sim_run *log;                /* every run, in the order they were executed */
	size_t nlog, caplog;
	pthread_mutex_t lock;
} sim;

/* A suite of n (<= SIM_MAX) tests without prerequisites nor faults; seed 1. */
void sim_init(sim *s, size_t n);
void sim_dispose(sim *s);
/* t truly needs p (p < t). */
void sim_need(sim *s, uint32_t t, uint32_t p);
/* t fails 1 in n of its turns at random, decided by s->seed (issue 32's intermittent
 * failures: a stale element, a dialog's timing). */
void sim_intermittent(sim *s, uint32_t t, long n);
/* A non-monotone pair: t fails when x ran and passed before it, unless y (-1: nothing)
 * also did (a test that protects a page, another that promotes the user). */
void sim_breaks(sim *s, uint32_t t, uint32_t x, long y);

/* The ut_detect_run_fn: ctx is a sim. */
int sim_run_schedule(void *ctx, int worker, const char *const *ids, const uint32_t *sched,
		     size_t n, ut_run_result *out);

/* Whether the schedule (ascending) passes whole in the truth (non-monotone pairs
 * included), flaky and intermittent turns aside. */
bool sim_passes(const sim *s, const uint32_t *sched, size_t n);

#endif
