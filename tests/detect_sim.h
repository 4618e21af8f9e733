/* detect_sim.h: a simulated runner for detection's unit tests, run in-process through
 * ut_detect_opts.run: a suite of n tests with hidden true prerequisites. A reset precedes
 * every schedule; a test passes iff each of its true prerequisites ran and passed earlier
 * in the same schedule (and it is not on a flaky turn). Every run is logged, so a test
 * can check what detection ran as well as what it concluded. */
#ifndef UT_TESTS_DETECT_SIM_H
#define UT_TESTS_DETECT_SIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "detect/detect.h"

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
	long flaky;                  /* a test that fails on every flaky_every-th execution, -1 none */
	long flaky_every;
	long execs[SIM_MAX];         /* executions per test so far */
	long crash_run;              /* the run (1-based, in execution order) in which no test runs:
				      * every one reported not-run, as when mocha's beforeEach fails
				      * before the first test (a browser that did not answer); 0 none */
	unsigned flip_every;         /* intermittent outcomes: each execution's outcome is
				      * flipped (a pass fails, a failure passes) with chance
				      * 1 / flip_every, from `seed`; 0 none */
	uint64_t seed;
	long breaker, broken, rescuer; /* not monotone: `broken` fails after `breaker` ran and
					* passed unless `rescuer` did too; -1 none */
	sim_run *log;                /* every run, in the order they were executed */
	size_t nlog, caplog;
	pthread_mutex_t lock;
} sim;

/* A suite of n (<= SIM_MAX) tests without prerequisites, flaky test nor intermittent
 * outcomes, monotone. */
void sim_init(sim *s, size_t n);
void sim_dispose(sim *s);
/* t truly needs p (p < t). */
void sim_need(sim *s, uint32_t t, uint32_t p);

/* The ut_detect_run_fn: ctx is a sim. */
int sim_run_schedule(void *ctx, int worker, const char *const *ids, const uint32_t *sched,
		     size_t n, ut_run_result *out);

/* Whether the schedule (ascending) passes whole in the truth, flakiness aside. */
bool sim_passes(const sim *s, const uint32_t *sched, size_t n);

#endif
