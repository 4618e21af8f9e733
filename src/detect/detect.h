/* detect.h: validation and recovery (thesis 5.2.3, 5.2.4): runs schedules of tests through
 * the project's runner to prove or refute each candidate edge and to recover the missing
 * ones. Strategy `tedd` is the thesis' algorithm, kept faithful as the cost baseline. */
#ifndef UT_DETECT_H
#define UT_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/journal.h"
#include "graph/graph.h"
#include "runner/runner.h"

typedef enum {
	UT_PHASE_ORIGINAL,     /* the original order, reruns + 1 times: expected outcomes */
	UT_PHASE_VALIDATE,     /* inverting candidate edges, source first */
	UT_PHASE_RECOVER,      /* Alg. 5: schedules without inversion */
	UT_PHASE_DISCONNECTED, /* Alg. 6: tests left without prerequisites */
	UT_PHASE_ISOLATION,    /* fast: every test alone */
	UT_PHASE_SEARCH,       /* fast: finding a sufficient set of prerequisites */
	UT_PHASE_VERIFY,       /* both: the output graph's schedules and proofs, at the end */
	UT_PHASE_COUNT
} ut_detect_phase;

const char *ut_detect_phase_name(ut_detect_phase p);

/* The validation strategy: fast (the default, 0) or tedd (the thesis' baseline). The
 * configuration and the journal keep its name; the code compares the enum. */
typedef enum {
	UT_STRATEGY_FAST = 0,
	UT_STRATEGY_TEDD
} ut_detect_strategy;

/* "fast" or "tedd" (borrowed, static). */
const char *ut_detect_strategy_name(ut_detect_strategy s);
/* The strategy called name: 0, or UT_EINPUT ("'NAME' is not one of tedd, fast"). */
int ut_detect_strategy_parse(ut_detect_strategy *out, const char *name);

/* One run finished (or was replayed from the journal). New runs are reported as each ends,
 * from the worker that ran it (one at a time); replayed ones as the batch is read. */
typedef struct {
	ut_detect_phase phase;
	const char *purpose;
	long run;            /* run id */
	bool replayed;       /* taken from the journal, not run again */
	bool passed;         /* every test it checks passed */
	const char *error;   /* the run failed as a whole (no usable report, timeout): how the
				runner ended; it is run again, its outcomes unused. NULL otherwise */
	const char *failed;  /* the first failing test id, or NULL */
	size_t tests;        /* schedule length */
	long runs_done;      /* so far (replayed included), this one too */
	long candidates_left; /* active candidate edges not yet decided (what tedd works on) */
	long tests_settled;  /* strategy fast: tests whose prerequisites are known (or left
				out); -1 when the strategy does not settle tests one by one */
	long tests_total;    /* the tests to settle; -1 likewise */
	double run_s;        /* this run's wall time (as recorded, when replayed) */
	double elapsed_s;    /* since detection started */
	double mean_run_s;   /* wall time per new run so far, 0 before the first */
	double eta_s;        /* time left, estimated from the runs so far and the work left
				(settled tests or candidates); < 0 when not known yet */
} ut_detect_event;

/* Per test, what an incremental re-validation (untangle check) does with it. */
enum {
	UT_REVALIDATE_KEEP = 0, /* its active edges stand; it runs only inside others' schedules */
	UT_REVALIDATE_VERIFY,   /* its edges stand, but its schedule must pass again (searched
				   again when it does not) */
	UT_REVALIDATE_SEARCH    /* validated from scratch: alone first, then searched */
};

/* Runs one schedule in place of the project's runner: the contract of ut_runner_run
 * (runner/runner.h), with the schedule's graph indices beside its ids. It fills *out
 * (out->tests: n results in schedule order, malloc'd; ut_run_result_dispose frees what it
 * holds) and returns 0, or UT_EENV / UT_EINTR as the runner would. Called from worker
 * threads when there are several workers, never twice at once for one worker. */
typedef int (*ut_detect_run_fn)(void *ctx, int worker, const char *const *ids,
				const uint32_t *sched, size_t n, ut_run_result *out);

typedef struct {
	ut_detect_strategy strategy; /* UT_STRATEGY_FAST (0, the default) or _TEDD */
	/* NULL: validate every test. Otherwise (strategy fast only) one UT_REVALIDATE_* per
	 * test: the original order is not run, tests the graph marks flaky or failing stay
	 * left out, and at the end the schedule of every test that was verified or searched
	 * and of each of its direct dependents runs (or is known to pass from a run that
	 * held exactly it before the test, or fewer of its prerequisites). */
	const unsigned char *revalidate;
	int reruns;           /* the original order runs reruns + 1 times */
	int worker;           /* the first worker index runs go to */
	int workers;          /* runs at once, on workers worker .. worker + workers - 1 (0: 1) */
	void (*progress)(void *ctx, const ut_detect_event *ev); /* NULL: none */
	void *progress_ctx;
	/* What runs a schedule: NULL, the runner given to ut_detect_run (which may then be
	 * NULL when run is set); a simulated runner in the unit tests (tests/detect_sim.c) */
	ut_detect_run_fn run;
	void *run_ctx;
} ut_detect_opts;

typedef struct {
	long schedules_run;   /* schedules executed, replayed ones included */
	long test_executions; /* tests in those schedules */
	long replayed;        /* of those, taken from the journal */
	long retried;         /* runs repeated because outcomes disagreed (dispute.c) */
	size_t disputes;      /* outcomes that contradicted a record, settled by those runs */
	size_t not_monotone;  /* of those, where both held: a test that passes after a set
				 and fails after more (dispute.c) */
	size_t searched_again; /* tests searched again because a pass their search was decided
				  on was refuted */
	double test_s;        /* the reported durations of those test executions, summed */
	long failing_executions; /* executions that failed or erred */
	double failing_s;     /* their reported durations (a failing test waits for what never
				 comes: on real applications it costs several passing ones) */
	double wall_s;        /* this invocation */
	double phase_s[UT_PHASE_COUNT]; /* runner wall time per phase (replayed: as recorded) */
	size_t manifest, removed, recovered;
	size_t flaky, failing; /* tests left out: flaky; failing (needs_left_out included) */
	size_t needs_left_out; /* of failing, those failing only without tests left out */
	size_t output_schedules; /* the schedules of the output graph (of the tests nobody
				    depends on), all seen passing (incremental: those in scope) */
	size_t verified_earlier; /* of those, seen passing whole before the verification */
	size_t verified;         /* tests whose own schedule was seen passing whole (of those in
				    scope, not left out) at the end */
	size_t verify_confirmed; /* manifest edges the verification ran again to confirm */
	size_t verify_runs;      /* runs of the final verification */
	size_t verify_searched;  /* tests it sent back to the search (a schedule failed, or a
				    prerequisite was not needed) */
	size_t verify_added, verify_removed; /* manifest edges the repair added, removed */
} ut_detect_stats;

/* Validates the active candidate edges of g in place: each ends `manifest` or `false`
 * (with evidence: the run ids), recovered edges are added and validated, and tests that
 * are flaky or fail in the original order are marked and left out. Per-test durations
 * come from the original-order runs. Every run is appended to the journal, and runs the
 * journal already holds are replayed instead of executed.
 * Returns 0, UT_EINTR (interrupted: the journal holds every finished run), UT_EENV (the
 * runner or the reset failed twice: the message says which), UT_EINPUT. */
int ut_detect_run(ut_graph *g, ut_runner *runner, ut_journal *journal,
		  const ut_detect_opts *opts, ut_detect_stats *stats);

/* One schedule for ut_detect_probe: graph indices in original order. */
typedef struct {
	const uint32_t *sched;
	size_t n;
	const char *purpose;
} ut_detect_probe_job;

typedef struct {
	long run;              /* its run id */
	bool error;            /* it failed as a whole: outcomes say nothing */
	ut_outcome *outcomes;  /* parallel to the schedule; owned by the caller (free) */
} ut_detect_probe_result;

/* Runs the m schedules once each as one batch, for a caller that judges them itself
 * (untangle check's removed prerequisites): journaled, replayed when the journal holds
 * them, on opts->workers workers, a failure that contradicts another run of the batch run
 * again; tests g marks flaky or failing count as left out. Adds to *stats (not reset).
 * out[i] belongs to jobs[i]. Returns 0, UT_EINTR, UT_EENV or UT_ENOMEM (out then empty). */
int ut_detect_probe(ut_graph *g, ut_runner *runner, ut_journal *journal,
		    const ut_detect_opts *opts, const ut_detect_probe_job *jobs, size_t m,
		    ut_detect_probe_result *out, ut_detect_stats *stats);

typedef struct {
	size_t selected;      /* tests in when fixing started */
	size_t broken;        /* of those, tests that failed in a run of the selection */
	size_t added;         /* preconditions added */
	size_t unfixed;       /* tests that still fail with every earlier test added */
	long runs, test_executions;
} ut_detect_fix_stats;

/*
 * Algorithm 7 of the thesis (6.2.1.1) on in[g->ntests], the tests selected from a
 * crawler-generated suite: runs them in original order on `worker`; for every failing
 * test, adds the nearest earlier tests that are not in yet, 1, then 2, 4, ... at a time
 * (the thesis slides windows of growing length; doubling needs a logarithmic number of
 * runs), until a run passes or no failing test has an earlier test left to add. Tests
 * added by the way that turn out unnecessary are for detect and minimize to remove.
 * The runs are not journaled. Returns 0, UT_EENV (the runner failed, or gave no usable
 * report), UT_EINTR, UT_ENOMEM.
 */
int ut_detect_fix(const ut_graph *g, ut_runner *runner, int worker, bool *in,
		  ut_detect_fix_stats *st);

#endif
