/* exec.c: executing one schedule for the detect stage: journal replay, the runner, the
 * evidence kept per test, and the re-run of failures that contradict it. */
#include "detect/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/error.h"
#include "util/banned.h"

#define DX_MAX_PASSES 16      /* pass records kept per test */
#define DX_TAIL_KEPT 4096     /* output kept in the journal for runs that did not pass */

double dx_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void dx_mark_flaky(dx_ctx *c, uint32_t test)
{
	if (c->excluded[test] != DX_IN)
		return;
	c->excluded[test] = DX_FLAKY;
	c->g->tests[test].flaky = true;
	c->stats->flaky++;
}

void dx_result_dispose(dx_result *r)
{
	if (!r)
		return;
	free(r->outcomes);
	free(r->durations);
	memset(r, 0, sizeof(*r));
}

static long first_failure(const dx_ctx *c, const uint32_t *sched, size_t n, const dx_result *r)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (c->excluded[sched[i]] == DX_IN && r->outcomes[i] != UT_OUT_PASS)
			return (long)sched[i];
	}
	return -1;
}

/* Whether b (sorted) holds every element of a (sorted). */
static bool subset(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i = 0, j = 0;

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

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The tests before position k of the schedule, sorted, into *out (malloc'd). */
static int prefix(const uint32_t *sched, size_t k, uint32_t **out)
{
	*out = malloc((k ? k : 1) * sizeof(**out));
	if (!*out)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (k)
		memcpy(*out, sched, k * sizeof(**out));
	qsort(*out, k, sizeof(**out), cmp_u32);
	return 0;
}

static int record_passes(dx_ctx *c, const uint32_t *sched, size_t n, const dx_result *r)
{
	size_t i;

	for (i = 0; i < n; i++) {
		dx_pass p;
		int rc;

		if (r->outcomes[i] != UT_OUT_PASS || c->passes[sched[i]].n >= DX_MAX_PASSES)
			continue;
		rc = prefix(sched, i, &p.before);
		if (rc < 0)
			return rc;
		p.n = i;
		if (ut_vec_push(&c->passes[sched[i]], p) < 0) {
			free(p.before);
			return ut_error_set(UT_ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* Whether the test at position k passed before after a subset of the tests now before it. */
static bool contradicts(const dx_ctx *c, const uint32_t *sched, size_t k)
{
	uint32_t *now = NULL;
	size_t i;
	bool found = false;

	if (prefix(sched, k, &now) < 0)
		return false;
	for (i = 0; i < c->passes[sched[k]].n && !found; i++) {
		const dx_pass *p = &c->passes[sched[k]].v[i];

		found = subset(p->before, p->n, now, k);
	}
	free(now);
	return found;
}

static void emit(dx_ctx *c, const char *purpose, const dx_result *r, size_t n, bool replayed)
{
	ut_detect_event ev;

	if (!c->opts->progress)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.phase = c->phase;
	ev.purpose = purpose;
	ev.run = r->run;
	ev.replayed = replayed;
	ev.passed = r->first_failure < 0 && !r->error;
	ev.failed = r->first_failure >= 0 ? c->g->tests[r->first_failure].id : NULL;
	ev.tests = n;
	ev.runs_done = c->stats->schedules_run;
	for (size_t i = 0; i < c->g->edges.n; i++) {
		const ut_edge *e = &c->g->edges.v[i];

		ev.candidates_left += ut_edge_active(e) && e->status == UT_EDGE_CANDIDATE;
	}
	ev.elapsed_s = dx_now() - c->t0;
	ev.mean_run_s = c->new_runs ? c->new_run_wall / (double)c->new_runs : 0;
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
	memcpy(out->outcomes, rec->outcomes, n * sizeof(*out->outcomes));
	memcpy(out->durations, rec->durations, n * sizeof(*out->durations));
	out->run = rec->run;
	out->error = rec->error;
	snprintf(out->detail, sizeof(out->detail), "%s", rec->detail ? rec->detail : "");
	return 0;
}

static void describe(const ut_run_result *res, char *buf, size_t size)
{
	char proc[200];

	ut_proc_describe(&res->proc, proc, sizeof(proc));
	if (res->status == UT_RUN_OK)
		snprintf(buf, size, "%s", proc);
	else
		snprintf(buf, size, "%s: %s%s%s", ut_run_status_name(res->status), proc,
			 res->report_error ? "; " : "", res->report_error ? res->report_error : "");
}

static int execute(dx_ctx *c, const char **ids, size_t n, const char *purpose, dx_result *out)
{
	ut_run_result res;
	ut_journal_record rec;
	char detail[1024];
	size_t i;
	int rc;

	memset(&rec, 0, sizeof(rec));
	rc = ut_runner_run(c->runner, c->opts->worker, ids, n, &res);
	if (rc == 0)
		rc = alloc_result(out, n);
	if (rc < 0)
		goto done;
	for (i = 0; i < n; i++) {
		out->outcomes[i] = res.tests[i].outcome;
		out->durations[i] = res.tests[i].outcome == UT_OUT_NOTRUN ? -1
								       : res.tests[i].duration_s;
	}
	out->error = res.status != UT_RUN_OK;
	out->run = ut_journal_next_id(c->journal);
	describe(&res, detail, sizeof(detail));
	snprintf(out->detail, sizeof(out->detail), "%s", detail);
	rec.run = out->run;
	rec.purpose = purpose;
	rec.worker = c->opts->worker;
	rec.ids = ids;
	rec.n = n;
	rec.outcomes = out->outcomes;
	rec.durations = out->durations;
	rec.error = out->error;
	rec.detail = detail;
	rec.attempts = res.attempts;
	rec.reset_s = res.reset_s;
	rec.start = res.start;
	rec.end = res.end;
	for (i = 0; i < n; i++) {
		if (out->outcomes[i] != UT_OUT_PASS || out->error) {
			size_t len = res.proc.tail_len > DX_TAIL_KEPT ? DX_TAIL_KEPT : res.proc.tail_len;

			rec.tail = res.proc.tail ? res.proc.tail + res.proc.tail_len - len : NULL;
			break;
		}
	}
	rc = ut_journal_append(c->journal, &rec);
	c->new_runs++;
	c->new_run_wall += rec.end - rec.start;
	c->stats->phase_s[c->phase] += rec.end - rec.start;
done:
	ut_run_result_dispose(&res);
	return rc;
}

/* Per-test durations for sharding: the mean of the passing original-order runs. */
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

static int run_once(dx_ctx *c, const uint32_t *sched, size_t n, const char *purpose,
		    dx_result *out)
{
	const char **ids = calloc(n ? n : 1, sizeof(*ids));
	const ut_journal_record *rec;
	bool replayed = false;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!ids)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		ids[i] = c->g->tests[sched[i]].id;
	rec = ut_journal_replay(c->journal, ids, n);
	if (rec) {
		rc = from_journal(rec, n, out);
		replayed = true;
		c->stats->replayed++;
		c->stats->phase_s[c->phase] += rec->end - rec->start;
	} else {
		rc = execute(c, ids, n, purpose, out);
	}
	free(ids);
	if (rc < 0) {
		dx_result_dispose(out);
		return rc;
	}
	c->stats->schedules_run++;
	c->stats->test_executions += (long)n;
	if (c->phase == UT_PHASE_ORIGINAL)
		note_durations(c, sched, n, out);
	/* A run cut short counts its tests without an outcome as failures. */
	out->first_failure = first_failure(c, sched, n, out);
	if (out->error && out->first_failure < 0 && n)
		out->first_failure = (long)sched[n - 1];
	emit(c, purpose, out, n, replayed);
	return 0;
}

int dx_run(dx_ctx *c, const uint32_t *sched, size_t n, const char *purpose, dx_result *out)
{
	dx_result again;
	char why[600];
	size_t k;
	int rc;

	rc = run_once(c, sched, n, purpose, out);
	if (rc < 0)
		return rc;
	if (out->first_failure < 0 || c->phase == UT_PHASE_ORIGINAL)
		goto record;
	for (k = 0; k < n && sched[k] != (uint32_t)out->first_failure; k++)
		;
	if (k == n || !contradicts(c, sched, k))
		goto record;
	/* It passed before with no more tests ahead of it: see it fail twice before the graph
	 * changes. */
	snprintf(why, sizeof(why), "%s (again: %s failed after passing with fewer tests)",
		 purpose, c->g->tests[out->first_failure].id);
	rc = run_once(c, sched, n, why, &again);
	if (rc < 0)
		return rc;
	c->stats->retried++;
	if (again.first_failure != out->first_failure) {
		if (again.first_failure < 0 || again.first_failure > out->first_failure)
			dx_mark_flaky(c, (uint32_t)out->first_failure);
		dx_result_dispose(out);
		*out = again;
		out->first_failure = first_failure(c, sched, n, out);
	} else {
		dx_result_dispose(&again);
	}
record:
	if (!out->error)
		rc = record_passes(c, sched, n, out);
	return rc;
}

int dx_schedule(dx_ctx *c, uint32_t test, const ut_edge *skip, dx_sched *out)
{
	ut_adjacency adj;
	unsigned char *in = NULL;
	uint32_t k;
	size_t i;
	int rc;

	out->n = 0;
	rc = ut_adjacency_build(&adj, c->g, NULL, NULL);
	if (rc < 0)
		return rc;
	in = calloc(c->g->ntests ? c->g->ntests : 1, 1);
	if (!in) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	/* The direct prerequisites of `test` but skip, then everything they need. */
	for (k = adj.start[test]; k < adj.start[test + 1]; k++) {
		if (!skip || adj.deps[k] != skip->dependee)
			in[adj.deps[k]] = 1;
	}
	rc = ut_adjacency_closure(&adj, in);
	in[test] = 1;
	for (i = 0; rc == 0 && i < c->g->ntests; i++) {
		if (in[i] && ut_vec_push(out, (uint32_t)i) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
done:
	free(in);
	ut_adjacency_dispose(&adj);
	return rc;
}
