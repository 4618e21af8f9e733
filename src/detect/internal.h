/* internal.h: what the detect stage's files share: the run context and schedules. */
#ifndef UT_DETECT_INTERNAL_H
#define UT_DETECT_INTERNAL_H

#include <stdint.h>

#include "detect/detect.h"
#include "util/vec.h"

/* Why a test is left out of validation. */
enum { DX_IN = 0, DX_FLAKY = 1, DX_FAILING = 2 };

typedef UT_VEC(uint32_t) dx_sched;

/* A test passed (or failed) after exactly the tests of `set` (ascending) in run `run`. */
typedef struct {
	uint32_t *set;
	size_t n;
	long run;
	unsigned hits; /* runs that showed exactly this (the first one included) */
	bool held;     /* a dispute confirmed it against a record it contradicts: kept */
} dx_rec;

typedef UT_VEC(dx_rec) dx_recs;

/* Pass records and fail records kept per test, each: when a record that says nothing
 * more than another one is dropped and the list is still full, the oldest goes
 * (docs/detection.md, "The model and the decision rule"). */
#define DX_RECORDS 24

/* What the runs showed of one test (evidence.c, the one store: fast, tedd, verify and the
 * re-runs of dx_run_batch all ask it). */
typedef struct {
	dx_recs pass, fail; /* the sets that say most, at most DX_RECORDS of each */
	dx_recs whole;      /* runs it ended that passed whole: its schedule as it ran */
} dx_evidence;

/* What runs are expected to cost (cost.c): per test, the seconds reported when it passed
 * and when it failed, summed with their counts; the same over the suite; and what runs
 * took besides their tests. */
typedef struct {
	double *pass_s, *fail_s;
	unsigned *npass, *nfail;
	double all_pass_s, all_fail_s, overhead_s;
	long all_npass, all_nfail, nruns;
} dx_cost;

typedef struct {
	ut_graph *g;
	ut_runner *runner;
	ut_journal *journal;
	const ut_detect_opts *opts;
	ut_detect_stats *stats;
	ut_detect_phase phase;
	unsigned char *excluded; /* per test: DX_IN, DX_FLAKY, DX_FAILING */
	dx_evidence *ev;         /* per test */
	unsigned char *checked;  /* per test: Alg. 6 looked at it since its edges changed */
	double t0, new_run_wall;
	long new_runs;
	int workers;             /* runs at once: opts->workers, at least 1 */
	bool durations_any;      /* durations from every passing run, not only the original order */
	long batch;              /* the last batch id given to new runs */
	int hangs;               /* runs in a row that ran past runner.timeout_s */
	long events;             /* runs reported to opts->progress so far */
	long live_runs;          /* new runs ended, and their wall time, as they end */
	double live_wall;
	/* The strategy's count of settled tests (search.c), or NULL: for the progress. */
	long (*count_settled)(const void *ctx, long *total);
	const void *settled_ctx;
	double timeout_s;        /* runner.timeout_s, for the message that stops on hangs */
	dx_cost cost;            /* the seconds runs took, to price the next ones */
	/* Runs whose pass of a test later runs refuted (dispute.c): a test whose search was
	 * decided on one is searched again. Ascending by the order they were refuted. */
	UT_VEC(long) refuted;
	bool unsteady;           /* outcomes disagreed once: decisions need confirming */
	bool intermittent;       /* a dispute other than a clean not-monotone one: both sides
				    held and no run of either showed the other outcome */
} dx_ctx;

/* Runs in a row past runner.timeout_s after which detection stops (UT_EENV): a hang costs
 * two timeouts, not one per test. */
#define DX_HANGS_MAX 2

/* Sets up a run context (the caller sets stats to zero when it wants to). 0 or UT_ENOMEM;
 * dispose it either way. */
int dx_ctx_init(dx_ctx *c, ut_graph *g, ut_runner *runner, ut_journal *journal,
		const ut_detect_opts *opts, ut_detect_stats *stats);
void dx_ctx_dispose(dx_ctx *c);

/* One schedule to run as part of a batch. */
typedef struct {
	const uint32_t *sched; /* graph indices in original order */
	size_t n;
	const char *purpose;
	ut_detect_phase phase;
	size_t ends; /* how many of the last tests each end a schedule asked about (several
			when one run answers several tests); 0 as 1: the last */
} dx_job;

typedef struct {
	long run;
	ut_outcome *outcomes; /* parallel to the schedule; owned */
	double *durations;    /* likewise, seconds; < 0 unknown */
	bool error;           /* the run failed as a whole */
	bool timed_out;       /* ... because it ran past runner.timeout_s */
	double wall_s;        /* the run's wall time (as recorded, when replayed) */
	long first_failure;   /* graph index of the first included test that did not pass, or -1 */
	char detail[1024];    /* how the run ended, e.g. "exit status 0" */
	char *tail;           /* the end of the runner's output when error; owned, or NULL */
	unsigned char *settled; /* per position: an outcome a dispute settled, its runs in
				   the store already (dx_evidence_learn skips it); owned, or
				   NULL: none */
} dx_result;

/* How many times a run that fails as a whole (no usable report, a timeout) is run again
 * before detect stops with UT_EENV (docs/detection.md, "The runner"): DX_ERROR_RETRIES + 1
 * runner invocations in all. The one retry policy of runs: the runner itself
 * (ut_runner_run) tries once, so the two never multiply (check_runner.c counts them). */
#define DX_ERROR_RETRIES 2

void dx_result_dispose(dx_result *r);
/* The graph index of the first included test of the run that did not pass, or -1. */
long dx_first_failure(const dx_ctx *c, const uint32_t *sched, size_t n, const dx_result *r);
/* Runs or replays every job once, as one batch, learning nothing (the evidence store is
 * the caller's to update); a run that fails as a whole is run again as dx_run_batch does. */
int dx_run_plain(dx_ctx *c, const dx_job *jobs, size_t m, dx_result *out);
/* Before the first run: the reset and the first test alone within runner.preflight_s, so
 * that a runner that cannot start, compiles nothing, writes no report or hangs stops
 * detection in seconds (UT_EENV, saying what to change), not after a run per test. Nothing
 * is journaled. 0 also when there is no preflight (a simulated runner, preflight_s 0, a
 * resumed journal that holds runs). */
int dx_preflight(dx_ctx *c);
/* Disposes r[0..m) and frees r. Accepts NULL. */
void dx_results_free(dx_result *r, size_t m);
/* Whether b (ascending) holds every element of a (ascending). */
bool dx_subset(const uint32_t *a, size_t na, const uint32_t *b, size_t nb);
/* Leaves the test out from now on as flaky. */
void dx_mark_flaky(dx_ctx *c, uint32_t test);
/* Leaves the test out as one that fails even after every earlier test. */
void dx_mark_failing(dx_ctx *c, uint32_t test);
/* Leaves the test out as failing because it fails after every earlier test but those left
 * out before it (it passed in the original order, where they ran): it most likely needs
 * one of them. */
void dx_mark_needs_left_out(dx_ctx *c, uint32_t test);

/* Runs the schedule (graph indices in original order) or replays it from the journal;
 * a run that fails as a whole is no evidence: it is run again up to DX_ERROR_RETRIES
 * times, then UT_EENV says what to fix. Re-runs it once when a failure contradicts
 * earlier evidence (and marks the test flaky when the two runs disagree). */
int dx_run(dx_ctx *c, const uint32_t *sched, size_t n, const char *purpose, dx_result *out);

/* Runs independent schedules as one batch, up to c->workers at once (the longest first),
 * each replayed from the journal when it holds it; out[i] belongs to jobs[i]. Results are
 * accounted for in job order, so decisions do not depend on which run ended first. A run
 * that fails as a whole is run again (up to DX_ERROR_RETRIES times, then UT_EENV); no
 * result handed out has error set. Runs
 * whose failure contradicts earlier evidence are re-run once, as another batch. On an
 * error the finished runs stay journaled and out is disposed. */
int dx_run_batch(dx_ctx *c, const dx_job *jobs, size_t m, dx_result *out);

/* The cost of runs (cost.c). */
int dx_cost_init(dx_cost *k, size_t n);
void dx_cost_dispose(dx_cost *k);
/* Learns from a finished (or replayed) run: sched its tests, r its outcomes and durations. */
void dx_cost_learn(dx_cost *k, const uint32_t *sched, size_t n, const dx_result *r);
/* Seconds test t is expected to take when it passes, or when it fails: its own mean, else
 * the suite's (a failure never seen: its passing seconds scaled as the suite's failures
 * are), else 1. */
double dx_cost_test(const dx_cost *k, uint32_t t, bool passes);
/* Seconds of the tests v[0..n) when they pass. */
double dx_cost_sched(const dx_cost *k, const uint32_t *v, size_t n);
/* Seconds a run takes besides its tests (reset, runner start), on average; 0 unknown. */
double dx_cost_overhead(const dx_cost *k);

/* The evidence store (evidence.c). */
int dx_evidence_init(dx_ctx *c);
void dx_evidence_free(dx_ctx *c);
/* Learns what a finished run shows of every test it held (nothing from a run that failed
 * as a whole). sched: the run's tests, ascending; each of its last `ends` tests (0 as 1)
 * that passed with every test before it ended a schedule that passed whole. */
int dx_evidence_learn(dx_ctx *c, const uint32_t *sched, size_t n, size_t ends,
		      const dx_result *r);
/* What is known of t run after exactly the tests of set (ascending): 1 passes, -1 fails,
 * 0 not known; *run is a run that shows it. within (ascending, nw tests; NULL: no such
 * set) holds every test t may need, set among them: a pass after P then answers when the
 * tests of P within it are in set, whatever else P held (t's outcome depends on those
 * alone), so that the runs of other tests that held t answer its questions too. */
int dx_evidence_known(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n,
		      const uint32_t *within, size_t nw, long *run);
/* What is known of t run after exactly the tests of set (ascending), above base (a subset
 * of set): as dx_evidence_known without `within`, but only a pass after a superset of
 * base answers (t need not be monotone below it: the rescue of a test broken by one of
 * base, rescue.c). */
int dx_evidence_known_over(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n,
			   const uint32_t *base, size_t nb, long *run);
/* Whether t passed before after a subset of `before`: its failure after `before` would
 * contradict that. A pass a dispute held does not: t is not monotone above it (the
 * failures after more tests are what it was held against; rescue.c asks about them). */
bool dx_evidence_contradicts(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n);
/* The run in which t, after exactly `before`, ended a schedule that passed whole; 0 when
 * none did. */
long dx_evidence_whole(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n);

/* How many runs of one question a decision needs: detect.reruns + 1, at least 1. */
int dx_need(const dx_ctx *c);
/* Runs that showed t fail after a set holding every test of set (ascending) and not
 * `lacking` (UINT32_MAX: any set): a failure with the test lacking says nothing of it.
 * held: only in records a dispute held (t is not monotone there: confirmed by reruns). */
unsigned dx_evidence_failures(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n,
			      uint32_t lacking, bool held);
/* Whether a run showed t fail after every earlier test, each of them passing. */
bool dx_evidence_failed_after_all(const dx_ctx *c, uint32_t t);
/* Runs that showed t fail after a superset of set (ascending), in records no dispute held
 * (a test not monotone there fails after more tests by rule, not by chance). */
unsigned dx_evidence_refutes(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n);
/* Drops t's pass record that run `run` showed (unless a dispute held it), as a refuted
 * one. */
void dx_evidence_forget_run(dx_ctx *c, uint32_t t, long run);
/* Whether run `run` showed a pass of t that a dispute refuted since. */
bool dx_refuted(const dx_ctx *c, long run);
/* The record of t after exactly set (ascending) in the pass (is_pass) or fail records, or
 * NULL. Borrowed. */
dx_rec *dx_evidence_find(dx_ctx *c, uint32_t t, const uint32_t *set, size_t n, bool is_pass);
/* Drops t's record after exactly set (pass or fail records) and, for a pass, the whole
 * schedules t ended in that record's run. */
void dx_evidence_forget(dx_ctx *c, uint32_t t, const uint32_t *set, size_t n, bool is_pass);
/* Adds what `hits` runs showed of t after exactly set, as dx_evidence_learn would, but
 * kept even when another record says more (an outcome confirmed by reruns outlives a
 * record that a dispute may refute later). */
int dx_evidence_add(dx_ctx *c, uint32_t t, const uint32_t *set, size_t n, long run,
		    unsigned hits, bool is_pass);
/* t ended a schedule that passed whole: t after exactly before, in run `run`. */
int dx_evidence_note_whole(dx_ctx *c, uint32_t t, const uint32_t *before, size_t n, long run);

/* Outcomes that disagree (dispute.c): before a batch's runs are learnt, every test whose
 * outcome contradicts a record of the store under the monotone model (it failed after a
 * superset of a set it passed after, or passed after a subset of one it failed after) has
 * both schedules run again until each shows one outcome dx_need() times. The side that
 * loses is dropped from the store (a refuted pass: its run goes to c->refuted) and the
 * result handed back says what the runs confirmed. Both holding is a test that is not
 * monotone: both records stay. 0 or an error. */
int dx_disputes(dx_ctx *c, const dx_job *jobs, size_t m, dx_result *out);

/* The tests the original order's runs disagree on (passes[t] of `runs`) run again after
 * every earlier test until each shows one outcome as dx_disputes asks: out[t] (per test)
 * DX_IN, DX_FAILING, or DX_FLAKY when its runs never agree; the others as their runs
 * were. told[t]: its failures with every earlier test passing, the only ones that vote
 * against its passes. 0 or an error. */
int dx_confirm_original(dx_ctx *c, const unsigned char *passes, const unsigned char *told,
			int runs, unsigned char *out);

/* How many runs t ended, after exactly before, that passed whole (0 none). */
unsigned dx_evidence_whole_hits(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n);

/* Strategy tedd. */
int dx_tedd(dx_ctx *c);
/* Strategy fast. */
int dx_fast(dx_ctx *c);
/* The final verification of the graph a strategy left (every test settled from its active
 * edges), with the repair of what it refutes by the search of strategy fast (verify.c). */
int dx_verify_output(dx_ctx *c);
/* The original order, reruns + 1 times (at once when there are workers): marks the tests
 * that are flaky or fail there; 0, or UT_EENV when a run gives no usable outcomes. With
 * extra jobs, they run in the same batch (their results go to extra_out). Each original
 * order run is shown to seen(ctx, ...) when it is not NULL, after the marking. */
int dx_original_order(dx_ctx *c, const dx_job *extra, size_t nextra, dx_result *extra_out,
		      int (*seen)(void *ctx, const dx_job *job, const dx_result *r), void *ctx);

#endif
