/* exec.c: executing one schedule for the detect stage: journal replay, the runner, the
 * evidence kept per test, and the re-run of failures that contradict it. */
#include "detect/internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include "util/clock.h"
#include "util/workers.h"
#include "util/error.h"
#include "util/banned.h"

#define DX_TAIL_KEPT 4096     /* output kept in the journal for runs that did not pass */

void dx_mark_flaky(dx_ctx *c, uint32_t test)
{
	if (c->excluded[test] != DX_IN)
		return;
	c->excluded[test] = DX_FLAKY;
	c->unsteady = true;
	c->g->tests[test].flaky = true;
	c->stats->flaky++;
}

void dx_mark_failing(dx_ctx *c, uint32_t test)
{
	if (c->excluded[test] != DX_IN)
		return;
	c->excluded[test] = DX_FAILING;
	c->g->tests[test].failing = true;
	c->stats->failing++;
}

void dx_mark_needs_left_out(dx_ctx *c, uint32_t test)
{
	if (c->excluded[test] != DX_IN)
		return;
	dx_mark_failing(c, test);
	c->g->tests[test].needs_left_out = true;
	c->stats->needs_left_out++;
}

void dx_result_dispose(dx_result *r)
{
	if (!r)
		return;
	free(r->outcomes);
	free(r->durations);
	free(r->tail);
	free(r->settled);
	memset(r, 0, sizeof(*r));
}

long dx_first_failure(const dx_ctx *c, const uint32_t *sched, size_t n, const dx_result *r)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (c->excluded[sched[i]] == DX_IN && r->outcomes[i] != UT_OUT_PASS)
			return (long)sched[i];
	}
	return -1;
}

void dx_results_free(dx_result *r, size_t m)
{
	for (size_t i = 0; r && i < m; i++)
		dx_result_dispose(&r[i]);
	free(r);
}

bool dx_subset(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i = 0, j = 0;

	if (na > nb)
		return false;
	while (i < na && j < nb) {
		if (a[i] == b[j])
			i++, j++;
		else if (a[i] > b[j])
			j++;
		else
			return false;
	}
	return i == na;
}

/* Reports a run that ended (live: from the worker, under the pool's lock) or was replayed. */
static void emit(dx_ctx *c, const char *purpose, const dx_result *r, size_t n, long failed,
		 bool replayed)
{
	ut_detect_event ev;
	double runs_left = -1;

	if (!c->opts->progress)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.phase = c->phase;
	ev.purpose = purpose;
	ev.run = r->run;
	ev.replayed = replayed;
	ev.passed = failed < 0 && !r->error;
	ev.error = r->error ? r->detail : NULL;
	ev.failed = failed >= 0 ? c->g->tests[failed].id : NULL;
	ev.tests = n;
	ev.runs_done = ++c->events;
	for (size_t i = 0; i < c->g->edges.n; i++) {
		const ut_edge *e = &c->g->edges.v[i];

		ev.candidates_left += ut_edge_active(e) && e->status == UT_EDGE_CANDIDATE;
	}
	ev.tests_settled = ev.tests_total = -1;
	if (c->count_settled)
		ev.tests_settled = c->count_settled(c->settled_ctx, &ev.tests_total);
	ev.run_s = r->wall_s;
	ev.elapsed_s = ut_clock_mono() - c->t0;
	ev.mean_run_s = c->live_runs ? c->live_wall / (double)c->live_runs : 0;
	/* the runs so far per settled test, for the tests left; else a run or two per
	 * candidate edge left */
	if (ev.tests_settled > 0 && ev.tests_total >= ev.tests_settled)
		runs_left = (double)ev.runs_done / (double)ev.tests_settled *
			    (double)(ev.tests_total - ev.tests_settled);
	else if (ev.candidates_left > 0)
		runs_left = 1.5 * (double)ev.candidates_left;
	ev.eta_s = runs_left >= 0 && ev.mean_run_s > 0
			   ? runs_left * ev.mean_run_s / (double)(c->workers ? c->workers : 1)
			   : -1;
	c->opts->progress(c->opts->progress_ctx, &ev);
}

static int alloc_result(dx_result *out, size_t n)
{
	out->outcomes = malloc((n ? n : 1) * sizeof(*out->outcomes));
	out->durations = malloc((n ? n : 1) * sizeof(*out->durations));
	if (!out->outcomes || !out->durations)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static int from_journal(const ut_journal_record *rec, size_t n, dx_result *out)
{
	if (alloc_result(out, n) < 0)
		return UT_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		out->outcomes[i] = (ut_outcome)rec->outcomes[i];
		out->durations[i] = rec->durations[i];
	}
	out->run = rec->run;
	out->error = rec->error;
	snprintf(out->detail, sizeof(out->detail), "%s", rec->detail ? rec->detail : "");
	return 0;
}

static void describe(const ut_run_result *res, bool nothing_ran, char *buf, size_t size)
{
	char proc[200];

	ut_proc_describe(&res->proc, proc, sizeof(proc));
	if (res->status == UT_RUN_OK)
		snprintf(buf, size, "%s%s", proc,
			 nothing_ran ? "; no test ran (every one not-run)" : "");
	else
		snprintf(buf, size, "%s: %s%s%s", ut_run_status_name(res->status), proc,
			 res->report_error ? "; " : "", res->report_error ? res->report_error : "");
}

/* Runs one schedule on a worker and journals it. Called from worker threads: touches
 * nothing in c but the runner and the journal (both thread-safe). */
static int execute(dx_ctx *c, int worker, const char **ids, const uint32_t *sched, size_t n,
		   const char *purpose, dx_result *out)
{
	ut_run_result res;
	ut_journal_record rec;
	char detail[1024];
	unsigned char *outs = malloc(n ? n : 1);
	float *durs = malloc((n ? n : 1) * sizeof(*durs));
	size_t i;
	bool nothing_ran;
	int rc;

	memset(&rec, 0, sizeof(rec));
	memset(&res, 0, sizeof(res));
	if (c->opts->run)
		rc = c->opts->run(c->opts->run_ctx, worker, ids, sched, n, &res);
	else
		rc = ut_runner_run(c->runner, worker, ids, n, &res);
	if (rc == 0)
		rc = !outs || !durs ? ut_error_set(UT_ENOMEM, "out of memory") : alloc_result(out, n);
	if (rc < 0)
		goto done;
	for (i = 0; i < n; i++) {
		out->outcomes[i] = res.tests[i].outcome;
		out->durations[i] = res.tests[i].outcome == UT_OUT_NOTRUN ? -1
								       : res.tests[i].duration_s;
		outs[i] = (unsigned char)out->outcomes[i];
		durs[i] = (float)out->durations[i];
	}
	/* Without a usable report, or cut short by the timeout, the outcomes say nothing of
	 * the tests (a partial report is not trusted either: what the runner did after the
	 * last test it reported is not known). Nor does a run of several tests in which none
	 * ran (a hook that failed before the first test, a browser that did not answer): it
	 * is run again as one that failed as a whole, never taken for the tests' failures. A
	 * test run alone and not run is the runner's word that it has no such test (an id it
	 * does not know): that stays an outcome, and the test is left out and named. */
	nothing_ran = n > 1 && res.status == UT_RUN_OK;
	for (i = 0; nothing_ran && i < n; i++)
		nothing_ran = out->outcomes[i] == UT_OUT_NOTRUN;
	out->error = res.status != UT_RUN_OK || res.proc.state == UT_PROC_TIMEOUT || nothing_ran;
	out->timed_out = res.proc.state == UT_PROC_TIMEOUT;
	out->run = ut_journal_next_id(c->journal);
	describe(&res, nothing_ran, detail, sizeof(detail));
	snprintf(out->detail, sizeof(out->detail), "%s", detail);
	rec.run = out->run;
	rec.purpose = purpose;
	rec.worker = worker;
	rec.batch = c->batch;
	rec.tests = sched;
	rec.n = n;
	rec.outcomes = outs;
	rec.durations = durs;
	rec.error = out->error;
	rec.detail = detail;
	rec.attempts = 1; /* each try is journaled as a run of its own */
	rec.reset_s = res.reset_s;
	rec.start = res.start;
	rec.end = res.end;
	for (i = 0; i < n; i++) {
		if (out->outcomes[i] != UT_OUT_PASS || out->error) {
			size_t len = res.proc.tail_len > DX_TAIL_KEPT ? DX_TAIL_KEPT : res.proc.tail_len;

			rec.tail = res.proc.tail ? res.proc.tail + res.proc.tail_len - len : NULL;
			if (out->error && rec.tail)
				out->tail = strdup(rec.tail);
			break;
		}
	}
	rc = ut_journal_append(c->journal, &rec);
	out->wall_s = rec.end - rec.start;
done:
	ut_run_result_dispose(&res);
	free(outs);
	free(durs);
	return rc;
}

/* Per-test durations for sharding: the mean of the passing original-order runs (of every
 * passing run when the strategy does not run the original order). */
static void note_durations(dx_ctx *c, const uint32_t *sched, size_t n, const dx_result *r)
{
	size_t i;

	for (i = 0; i < n; i++) {
		ut_graph_test *t = &c->g->tests[sched[i]];

		if (r->outcomes[i] != UT_OUT_PASS || r->durations[i] < 0)
			continue;
		t->duration_s = t->duration_s < 0 ? r->durations[i]
						   : (t->duration_s + r->durations[i]) / 2;
	}
}

/* The runs of one batch being executed: worker threads take the next job to run. */
typedef struct {
	dx_ctx *c;
	const dx_job *jobs;
	const char ***ids;
	const size_t *order; /* dispatch order: the longest first */
	size_t m, next;
	dx_result *out;
	int *rc;
	char **msg;          /* the error message of a job whose run failed as a whole */
	bool stop;           /* a run failed as a whole: start no more */
	pthread_mutex_t lock;
} dx_pool;

/* Counts the runs in a row past the timeout: at DX_HANGS_MAX, the job fails with why. */
static int count_hangs(dx_pool *p, size_t j)
{
	const dx_result *r = &p->out[j];
	int rc = 0;

	pthread_mutex_lock(&p->lock);
	if (r->timed_out)
		p->c->hangs++;
	else if (!r->error)
		p->c->hangs = 0;
	if (p->c->hangs >= DX_HANGS_MAX)
		rc = ut_error_set(UT_EENV, "%d runs in a row ran past runner.timeout_s (%g s), the "
				  "last run %ld (%s): the application or the browser hangs (is the "
				  "application up after runner.reset?), or the tests need longer "
				  "(raise runner.timeout_s). The runner's output ends with:\n%s",
				  p->c->hangs, p->c->timeout_s, r->run, p->jobs[j].purpose,
				  ut_runner_last_lines(r->tail, 12));
	pthread_mutex_unlock(&p->lock);
	return rc;
}

/* Reports the run as it ends, one worker at a time. */
static void emit_live(dx_pool *p, size_t j)
{
	const dx_job *job = &p->jobs[j];
	const dx_result *r = &p->out[j];

	pthread_mutex_lock(&p->lock);
	p->c->live_runs++;
	p->c->live_wall += r->wall_s;
	p->c->phase = job->phase;
	emit(p->c, job->purpose, r, job->n,
	     r->error ? -1 : dx_first_failure(p->c, job->sched, job->n, r), false);
	pthread_mutex_unlock(&p->lock);
}

static void run_job(dx_pool *p, int worker, size_t j)
{
	const dx_job *job = &p->jobs[j];
	int rc = execute(p->c, worker, p->ids[j], job->sched, job->n, job->purpose, &p->out[j]);

	if (rc == 0)
		emit_live(p, j);
	if (rc == 0)
		rc = count_hangs(p, j);
	if (rc < 0) {
		p->rc[j] = rc;
		p->msg[j] = strdup(ut_error_message());
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_mutex_unlock(&p->lock);
	}
}

/* Worker k runs in the runner's worker slot opts->worker + k. */
static void worker_main(void *arg, unsigned k)
{
	dx_pool *p = arg;
	int worker = p->c->opts->worker + (int)k;

	for (;;) {
		size_t j = SIZE_MAX;

		pthread_mutex_lock(&p->lock);
		if (!p->stop && p->next < p->m)
			j = p->order[p->next++];
		pthread_mutex_unlock(&p->lock);
		if (j == SIZE_MAX)
			break;
		run_job(p, worker, j);
	}
}

static double job_cost(const dx_ctx *c, const dx_job *job)
{
	return dx_cost_sched(&c->cost, job->sched, job->n);
}

typedef struct {
	double cost;
	size_t job;
} dx_order;

static int by_cost_desc(const void *a, const void *b)
{
	const dx_order *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

/* Executes the jobs marked in todo on up to c->workers workers at once. */
static int execute_all(dx_ctx *c, const dx_job *jobs, const char ***ids,
		       const unsigned char *todo, size_t m, dx_result *out)
{
	dx_pool p;
	size_t *order = calloc(m ? m : 1, sizeof(*order));
	int *rcs = calloc(m ? m : 1, sizeof(*rcs));
	char **msg = calloc(m ? m : 1, sizeof(*msg));
	dx_order *by_cost = calloc(m ? m : 1, sizeof(*by_cost));
	size_t j, k = 0;
	int rc = 0;

	if (!order || !rcs || !msg || !by_cost) {
		free(order), free(rcs), free(msg), free(by_cost);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (j = 0; j < m; j++) {
		if (todo[j])
			by_cost[k++] = (dx_order){job_cost(c, &jobs[j]), j};
	}
	qsort(by_cost, k, sizeof(*by_cost), by_cost_desc);
	for (j = 0; j < k; j++)
		order[j] = by_cost[j].job;
	free(by_cost);
	memset(&p, 0, sizeof(p));
	p.c = c;
	p.jobs = jobs;
	p.ids = ids;
	p.order = order;
	p.m = k;
	p.out = out;
	p.rc = rcs;
	p.msg = msg;
	pthread_mutex_init(&p.lock, NULL);
	/* a worker that cannot be started leaves its share to the others */
	ut_workers_run(ut_workers_count((unsigned)c->workers, k), worker_main, &p);
	pthread_mutex_destroy(&p.lock);
	for (j = 0; j < m; j++) {
		if (rcs[j] < 0 && (rc == 0 || rc == UT_EINTR))
			rc = ut_error_set(rcs[j], "%s", msg[j] ? msg[j] : "a run failed");
		free(msg[j]);
	}
	free(order);
	free(rcs);
	free(msg);
	return rc;
}

/* Counts a run (replayed ones included) in the stats. */
static void account(dx_ctx *c, const dx_job *job, const dx_result *r, bool replayed)
{
	c->stats->schedules_run++;
	c->stats->test_executions += (long)job->n;
	if (replayed) {
		c->stats->replayed++;
	} else {
		c->new_runs++;
		c->new_run_wall += r->wall_s;
	}
	c->stats->phase_s[job->phase] += r->wall_s;
	c->phase = job->phase;
	for (size_t i = 0; r->outcomes && !r->error && i < job->n; i++) {
		double d = r->durations[i] > 0 ? r->durations[i] : 0;

		c->stats->test_s += d;
		if (r->outcomes[i] == UT_OUT_FAIL || r->outcomes[i] == UT_OUT_ERROR) {
			c->stats->failing_executions++;
			c->stats->failing_s += d;
		}
	}
}

/* Accounts for a finished (or replayed) run in the stats and reports it. */
static void finish(dx_ctx *c, const dx_job *job, dx_result *r, bool replayed)
{
	account(c, job, r, replayed);
	dx_cost_learn(&c->cost, job->sched, job->n, r);
	if (job->phase == UT_PHASE_ORIGINAL || c->durations_any)
		note_durations(c, job->sched, job->n, r);
	r->first_failure = dx_first_failure(c, job->sched, job->n, r);
	if (replayed) /* new runs were reported as they ended */
		emit(c, job->purpose, r, job->n, r->first_failure, true);
}

/* A run that failed as a whole: counted (it cost its tests), reported, never learnt from. */
static void finish_error(dx_ctx *c, const dx_job *job, dx_result *r)
{
	account(c, job, r, false);
	r->first_failure = -1; /* reported as it ended */
}

/* After DX_ERROR_RETRIES: what failed and what to fix. */
static int error_stop(const dx_job *job, const dx_result *r)
{
	const char *tail = ut_runner_last_lines(r->tail, 12);
	size_t len = strlen(tail);

	return ut_error_set(UT_EENV, "run %ld (%s) gave no usable outcomes %d times in a row: %s%s. "
			    "Its tests' outcomes are not counted. The runner's output ends "
			    "with:\n%s%sFix the runner (it must write the JUnit report named "
			    "above within runner.timeout_s), then 'untangle detect --resume' goes "
			    "on: runs that failed as a whole are run again", r->run, job->purpose,
			    DX_ERROR_RETRIES + 1, r->detail,
			    strstr(r->detail, "timed out") ? " (runner.timeout_s)" : "", tail,
			    len && tail[len - 1] != '\n' ? "\n" : "");
}

/* Runs that failed as a whole (todo: the jobs just executed) are no evidence: they run
 * again, as batches of their own, until one has failed DX_ERROR_RETRIES + 1 times
 * (UT_EENV). While no run of a round gives outcomes, only one of them is tried, so that a
 * broken runner costs its retries once, not once per job of the batch. */
static int retry_errors(dx_ctx *c, const dx_job *jobs, const char ***ids, size_t m,
			dx_result *out, unsigned char *todo)
{
	unsigned char *fails = calloc(m ? m : 1, 1);
	bool through = false;
	size_t j;
	int rc = 0;

	if (!fails)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (j = 0; j < m; j++)
		through |= todo[j] && !out[j].error;
	for (;;) {
		size_t first = SIZE_MAX;

		for (j = 0; j < m; j++) {
			if (!out[j].outcomes || !out[j].error)
				continue;
			if (todo[j]) {
				finish_error(c, &jobs[j], &out[j]);
				fails[j]++;
			}
			if (fails[j] > DX_ERROR_RETRIES) {
				rc = error_stop(&jobs[j], &out[j]);
				goto done;
			}
			if (first == SIZE_MAX)
				first = j;
		}
		if (first == SIZE_MAX)
			break;
		for (j = 0; j < m; j++) {
			todo[j] = out[j].outcomes && out[j].error && (through || j == first);
			if (todo[j])
				dx_result_dispose(&out[j]);
		}
		c->batch++;
		rc = execute_all(c, jobs, ids, todo, m, out);
		if (rc < 0)
			break;
		through = false;
		for (j = 0; j < m; j++)
			through |= todo[j] && out[j].outcomes && !out[j].error;
	}
done:
	free(fails);
	return rc;
}

/* Runs or replays every job once, as one batch. On an error the runs that finished are
 * accounted for (and journaled) before it is returned. */
int dx_run_plain(dx_ctx *c, const dx_job *jobs, size_t m, dx_result *out)
{
	const char ***ids = calloc(m ? m : 1, sizeof(*ids));
	unsigned char *todo = calloc(m ? m : 1, 1), *replayed = calloc(m ? m : 1, 1);
	size_t j, ntodo = 0;
	int rc = 0;

	memset(out, 0, m * sizeof(*out));
	if (!ids || !todo || !replayed) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (j = 0; j < m && rc == 0; j++) {
		const ut_journal_record *rec;

		ids[j] = calloc(jobs[j].n ? jobs[j].n : 1, sizeof(**ids));
		if (!ids[j]) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		for (size_t i = 0; i < jobs[j].n; i++)
			ids[j][i] = c->g->tests[jobs[j].sched[i]].id;
		rec = ut_journal_replay(c->journal, jobs[j].sched, jobs[j].n);
		if (rec) {
			rc = from_journal(rec, jobs[j].n, &out[j]);
			out[j].wall_s = rec->end - rec->start;
			replayed[j] = 1;
		} else {
			todo[j] = 1;
			ntodo++;
		}
	}
	if (rc == 0 && ntodo) {
		c->batch++;
		rc = execute_all(c, jobs, ids, todo, m, out);
	}
	if (rc == 0 && ntodo)
		rc = retry_errors(c, jobs, ids, m, out, todo);
	for (j = 0; j < m; j++) {
		if (out[j].outcomes && !out[j].error)
			finish(c, &jobs[j], &out[j], replayed[j]);
	}
	for (j = 0; rc < 0 && j < m; j++)
		dx_result_dispose(&out[j]);
done:
	for (j = 0; ids && j < m; j++)
		free(ids[j]);
	free(ids);
	free(todo);
	free(replayed);
	return rc;
}

int dx_run_batch(dx_ctx *c, const dx_job *jobs, size_t m, dx_result *out)
{
	int rc = dx_run_plain(c, jobs, m, out);

	if (rc == 0) /* outcomes that disagree with the store are settled before it learns */
		rc = dx_disputes(c, jobs, m, out);
	for (size_t j = 0; rc == 0 && j < m; j++)
		rc = dx_evidence_learn(c, jobs[j].sched, jobs[j].n, jobs[j].ends, &out[j]);
	if (rc < 0) {
		for (size_t j = 0; j < m; j++)
			dx_result_dispose(&out[j]);
	}
	return rc;
}

int dx_run(dx_ctx *c, const uint32_t *sched, size_t n, const char *purpose, dx_result *out)
{
	dx_job job = {sched, n, purpose, c->phase, 1};

	return dx_run_batch(c, &job, 1, out);
}
