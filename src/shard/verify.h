/* verify.h: `untangle shard --verify`: every shard of a plan run after a reset before the
 * plan is published, and what a failing shard teaches the planner.
 *
 * A shard can fail although each test's own schedule passes: a test of another closure,
 * earlier in the shard, changes state that a later test reads (the issue-32 trial: an
 * admin test that opens the rich editor before a test that needs the plain one). For the
 * first failing test T of a failing shard, the shard's earlier tests outside T's schedule
 * (C, in original order) are searched: T's schedule alone must pass (else the graph is
 * wrong for T: nothing a plan can do), then a bisection over the prefixes of C finds the
 * shortest prefix after which T fails; its last test X interferes. The pair (X, T) goes
 * into the graph as a pair kept apart (ut_apart, with the failing and the passing run as
 * evidence), the plan is made again honouring it, and the new plan runs again: at most
 * `rounds` plans. Every run is journaled (journal_path, a new journal per call). */
#ifndef UT_SHARD_VERIFY_H
#define UT_SHARD_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "detect/detect.h"
#include "graph/graph.h"
#include "runner/runner.h"
#include "shard/shard.h"

/* Plans run at most, unless the options say otherwise. */
#define UT_SHARD_VERIFY_ROUNDS 4

typedef struct {
	ut_shard_opts plan;      /* what the plan was built with (nshards) */
	int rounds;              /* plans run at most (0: UT_SHARD_VERIFY_ROUNDS) */
	const char *journal_path; /* the runs' journal (.untangle/shard-journal.jsonl) */
	ut_detect_opts detect;   /* workers, worker, progress; run: a simulated runner (tests) */
} ut_shard_verify_opts;

typedef struct {
	bool passed;          /* every shard of the final plan passed */
	size_t rounds;        /* plans run */
	size_t shards_failed; /* shards that failed, over every round */
	size_t found;         /* pairs kept apart added to the graph */
	long unfixed;         /* a failing test no pair explains (its own schedule fails, or
			       * the pair was known and the plan could not honour it); -1 none */
	size_t apart_broken;  /* of the final plan (ut_shard_plan.apart_broken) */
	ut_detect_stats stats; /* the runs */
} ut_shard_verify_result;

/* Runs every non-empty shard of *plan (built from g, durations and o->plan) on the
 * runner, o->detect.workers at once, and repairs it as above. On return *plan is the last
 * plan run (the one to publish when out->passed) and g holds every pair found, whatever
 * the return code, so that the caller can save it. Returns 0 when the verification ran
 * to its end (out->passed says how it ended), UT_EINTR (interrupted), UT_EENV (the runner
 * failed, or a shard's run failed as a whole twice), UT_ENOMEM, or what opening the
 * journal returns. */
int ut_shard_verify(ut_shard_verify_result *out, ut_shard_plan *plan, ut_graph *g,
		    const double *durations, ut_runner *runner, const ut_shard_verify_opts *o);

#endif
