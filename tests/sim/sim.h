/* sim.h: the behaviour of untangle's simulated test runner, described and decided once.
 *
 * Two front ends share it: the in-process runner of the detect unit tests
 * (tests/detect_sim.c, through ut_detect_opts.run) and the simrun executable that the
 * benchmarks and the end-to-end ctests start as runner.command (tests/sim/simrun.c: its
 * usage says how a suite file spells each behaviour below, and the process faults that are
 * its own: a hang, a SIGKILL, no report, a corrupt one, an application that is down).
 *
 * A reset precedes every schedule. A test reached in a schedule:
 *   1. fails "needs P" when one of its prerequisites P did not run and pass earlier in the
 *      same schedule (SIM_NEEDS);
 *   2. fails "broken by X" when it has a non-monotone pair: X ran and passed earlier in the
 *      schedule and its rescuer Y did not (SIM_BROKEN). The test passes after S and fails
 *      after S + X, unless Y also ran: state that is not monotone (issue 32);
 *   3. otherwise, when it has a flaky period or an intermittent rate, its turn is counted
 *      (the executions of it that got this far, 1, 2, ...; the front end keeps the count):
 *      it fails on every flaky_every-th turn (SIM_FLAKY), and intermittently 1 in N turns
 *      at random, decided by sim_draw(seed, test, turn) so that a seed replays the same
 *      failures in any process (SIM_INTERMITTENT);
 *   4. passes (SIM_PASS).
 * Faults of a whole run (a run in which no test runs) belong to the front ends. */
#ifndef UT_TESTS_SIM_H
#define UT_TESTS_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	const uint32_t *prereqs; /* true prerequisites: indices of tests; borrowed */
	uint32_t nprereqs;
	long flaky_every;        /* fails on every k-th turn; 0 never */
	long intermittent;       /* fails 1 in N turns at random (seeded); 0 never */
	long broken_by;          /* X: fails when X ran and passed earlier ...; -1 none */
	long unless;             /* ... and Y did not; -1: no rescuer */
} sim_test;

/* A sim_test that always passes. */
#define SIM_TEST_INIT {NULL, 0, 0, 0, -1, -1}

typedef enum { SIM_PASS, SIM_NEEDS, SIM_BROKEN, SIM_FLAKY, SIM_INTERMITTENT } sim_verdict;

/* Counts one more turn of test t and returns it (1 for the first). */
typedef long (*sim_turn_fn)(void *ctx, uint32_t t);

/* The outcome of test t of tests[] reached in a schedule where passed[k] is nonzero for
 * each test k that ran and passed earlier in it. turn NULL: steps 3 are left out (the
 * truth, flakiness aside). *detail (may be NULL): the missing prerequisite or the breaker
 * for SIM_NEEDS and SIM_BROKEN, the turn for SIM_FLAKY and SIM_INTERMITTENT, else 0. */
sim_verdict sim_judge(const sim_test *tests, uint32_t t, const unsigned char *passed,
		      uint64_t seed, sim_turn_fn turn, void *ctx, long *detail);

/* Whether execution n (1, 2, ... of test t, however it went) has its outcome flipped, a
 * pass reported as a failure and a failure as a pass, with chance 1 / every (0: never),
 * from (seed, t, n) alone: intermittent outcomes in both directions (issue 32). Applied
 * by the front ends after sim_judge, when asked for. */
bool sim_flipped(uint64_t seed, uint32_t t, long n, long every);

/* A number drawn from (seed, test, turn) alone: the same in every process and run order. */
uint64_t sim_draw(uint64_t seed, uint32_t t, long turn);

#endif
