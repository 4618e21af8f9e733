/* internal.h: what the detect stage's files share: the run context and schedules. */
#ifndef UT_DETECT_INTERNAL_H
#define UT_DETECT_INTERNAL_H

#include <stdint.h>

#include "detect/detect.h"
#include "util/vec.h"

/* Why a test is left out of validation. */
enum { DX_IN = 0, DX_FLAKY = 1, DX_FAILING = 2 };

typedef UT_VEC(uint32_t) dx_sched;

/* A test passed after exactly these tests (sorted indices): evidence that a later failure
 * after a superset of them contradicts. */
typedef struct {
	uint32_t *before;
	size_t n;
} dx_pass;

typedef struct {
	ut_graph *g;
	ut_runner *runner;
	ut_journal *journal;
	const ut_detect_opts *opts;
	ut_detect_stats *stats;
	ut_detect_phase phase;
	unsigned char *excluded; /* per test: DX_IN, DX_FLAKY, DX_FAILING */
	UT_VEC(dx_pass) *passes; /* per test */
	unsigned char *checked;  /* per test: Alg. 6 looked at it since its edges changed */
	double t0, new_run_wall;
	long new_runs;
} dx_ctx;

typedef struct {
	long run;
	ut_outcome *outcomes; /* parallel to the schedule; owned */
	double *durations;    /* likewise, seconds; < 0 unknown */
	bool error;           /* the run failed as a whole */
	long first_failure;   /* graph index of the first included test that did not pass, or -1 */
	char detail[1024];    /* how the run ended, e.g. "exit status 0" */
} dx_result;

void dx_result_dispose(dx_result *r);
/* Leaves the test out from now on as flaky. */
void dx_mark_flaky(dx_ctx *c, uint32_t test);

/* Runs the schedule (graph indices in original order) or replays it from the journal;
 * re-runs it once when a failure contradicts earlier evidence (and marks the test flaky
 * when the two runs disagree). */
int dx_run(dx_ctx *c, const uint32_t *sched, size_t n, const char *purpose, dx_result *out);

/* The schedule of `test`: it and its transitive prerequisites over the active edges,
 * leaving out the edge skip (NULL: none), in original order. */
int dx_schedule(dx_ctx *c, uint32_t test, const ut_edge *skip, dx_sched *out);

double dx_now(void);

/* Strategy tedd. */
int dx_tedd(dx_ctx *c);

#endif
