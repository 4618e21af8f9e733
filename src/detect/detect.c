/* detect.c: the detect stage's entry point: sets up a run context and a strategy. */
#include "detect/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/workers.h"
#include "util/error.h"
#include "util/banned.h"

static const char *const phase_names[] = {"original order", "validation", "recovery",
					   "disconnected recovery", "isolation", "search",
					   "verification"};

const char *ut_detect_phase_name(ut_detect_phase p)
{
	return (unsigned)p < UT_PHASE_COUNT ? phase_names[p] : "?";
}

const char *ut_detect_strategy_name(ut_detect_strategy s)
{
	return s == UT_STRATEGY_TEDD ? "tedd" : "fast";
}

int ut_detect_strategy_parse(ut_detect_strategy *out, const char *name)
{
	if (name && !strcmp(name, "tedd"))
		*out = UT_STRATEGY_TEDD;
	else if (name && !strcmp(name, "fast"))
		*out = UT_STRATEGY_FAST;
	else
		return ut_error_set(UT_EINPUT, "'%s' is not one of tedd, fast", name ? name : "");
	return 0;
}

/* Per test, the runs of the original order it passed in, and those it failed in with every
 * earlier test passing (a failure after one that failed says nothing of the test: the
 * proof rule). */
static void count_outcomes(const dx_ctx *c, const dx_result *res, int runs,
			   unsigned char *passes, unsigned char *told)
{
	for (int k = 0; k < runs; k++) {
		bool clean = true;

		for (size_t i = 0; i < c->g->ntests; i++) {
			bool pass = res[k].outcomes[i] == UT_OUT_PASS;

			passes[i] += pass;
			told[i] += clean && !pass;
			clean = clean && (pass || c->excluded[i] != DX_IN);
		}
	}
}

int dx_original_order(dx_ctx *c, const dx_job *extra, size_t nextra, dx_result *extra_out,
		      int (*seen)(void *ctx, const dx_job *job, const dx_result *r), void *ctx)
{
	int runs = c->opts->reruns + 1, k, rc = 0;
	size_t i, m = (size_t)runs + nextra;
	uint32_t *all = malloc((c->g->ntests ? c->g->ntests : 1) * sizeof(*all));
	unsigned char *passes = calloc(c->g->ntests ? c->g->ntests : 1, 1);
	unsigned char *verdict = calloc(c->g->ntests ? c->g->ntests : 1, 1);
	unsigned char *told = calloc(c->g->ntests ? c->g->ntests : 1, 1);
	dx_job *jobs = calloc(m, sizeof(*jobs));
	dx_result *res = calloc(m, sizeof(*res));
	char (*purpose)[64] = calloc((size_t)runs, sizeof(*purpose));

	if (!all || !passes || !verdict || !told || !jobs || !res || !purpose) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < c->g->ntests; i++)
		all[i] = (uint32_t)i;
	for (k = 0; k < runs; k++) {
		snprintf(purpose[k], sizeof(purpose[k]), "original order %d/%d", k + 1, runs);
		jobs[k] = (dx_job){all, c->g->ntests, purpose[k], UT_PHASE_ORIGINAL, 1};
	}
	for (i = 0; i < nextra; i++)
		jobs[(size_t)runs + i] = extra[i];
	c->phase = UT_PHASE_ORIGINAL;
	rc = dx_run_batch(c, jobs, m, res);
	if (rc < 0)
		goto done;
	for (k = 0; k < runs; k++) {
		if (res[k].error) {
			/* Without the expected outcomes nothing can be validated. */
			rc = ut_error_set(UT_EENV, "the original order gave no usable outcomes (run %ld: "
					  "%s); see the run's output in the journal", res[k].run,
					  res[k].detail);
			goto done;
		}
	}
	count_outcomes(c, res, runs, passes, told);
	for (i = 0, k = 0; i < c->g->ntests; i++)
		k += c->excluded[i] == DX_IN && passes[i] > 0;
	if (k == 0 && c->g->ntests > 0) {
		/* nothing passed: the application, the browser or the runner's set-up is broken,
		 * and a graph of "failing" tests would say nothing */
		rc = ut_error_set(UT_EENV, "no test passed in the original order (run %ld: %s): the "
				  "application, the browser or the tests' set-up is not working; fix "
				  "it, then run 'untangle detect --fresh'",
				  res[0].run, res[0].detail);
		goto done;
	}
	/* a test the runs disagree on runs again until its outcome is confirmed */
	rc = dx_confirm_original(c, passes, told, runs, verdict);
	for (i = 0; rc == 0 && i < c->g->ntests; i++) {
		if (verdict[i] == DX_FLAKY)
			dx_mark_flaky(c, (uint32_t)i);
		else if (verdict[i] == DX_FAILING)
			dx_mark_failing(c, (uint32_t)i);
	}
	for (k = 0; seen && rc == 0 && k < runs; k++)
		rc = seen(ctx, &jobs[k], &res[k]);
	for (i = 0; rc == 0 && i < nextra; i++) {
		extra_out[i] = res[(size_t)runs + i];
		memset(&res[(size_t)runs + i], 0, sizeof(res[0]));
	}
done:
	dx_results_free(res, m);
	free(jobs);
	free(purpose);
	free(passes);
	free(verdict);
	free(told);
	free(all);
	return rc;
}

/* Edges nobody could validate say why. */
static void explain_left_out(dx_ctx *c)
{
	size_t i;

	for (i = 0; i < c->g->edges.n; i++) {
		ut_edge *e = &c->g->edges.v[i];

		if (!ut_edge_active(e) || e->status != UT_EDGE_CANDIDATE)
			continue;
		if (c->excluded[e->dependent] == DX_FLAKY)
			e->reason = "not validated: the dependent is flaky";
		else if (c->excluded[e->dependent] == DX_FAILING &&
			 c->g->tests[e->dependent].needs_left_out)
			e->reason = "not validated: the dependent fails without the tests left out "
				    "before it";
		else if (c->excluded[e->dependent] == DX_FAILING)
			e->reason = "not validated: the dependent fails in the original order";
	}
}

int dx_ctx_init(dx_ctx *c, ut_graph *g, ut_runner *runner, ut_journal *journal,
		const ut_detect_opts *opts, ut_detect_stats *stats)
{
	size_t n = g->ntests ? g->ntests : 1;

	memset(c, 0, sizeof(*c));
	c->g = g;
	c->runner = runner;
	c->journal = journal;
	c->opts = opts;
	c->stats = stats;
	c->t0 = ut_clock_mono();
	c->timeout_s = runner ? ut_runner_timeout_s(runner) : 0;
	c->workers = opts->workers < 1 ? 1 : opts->workers > UT_MAX_WORKERS ? UT_MAX_WORKERS
									       : opts->workers;
	c->excluded = calloc(n, 1);
	c->checked = calloc(n, 1);
	if (!c->excluded || !c->checked || dx_evidence_init(c) < 0 ||
	    dx_cost_init(&c->cost, n) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

void dx_ctx_dispose(dx_ctx *c)
{
	dx_evidence_free(c);
	dx_cost_dispose(&c->cost);
	ut_vec_free(&c->refuted);
	free(c->excluded);
	free(c->checked);
}

int dx_preflight(dx_ctx *c)
{
	size_t t;

	/* a resumed journal's runs show the runner worked in this detection: its failures
	 * since then are the retry policy's (exec.c) */
	if (!c->runner || c->opts->run || c->g->ntests == 0 ||
	    (c->journal && ut_journal_recorded(c->journal) > 0))
		return 0;
	for (t = 0; t < c->g->ntests && c->excluded[t] != DX_IN; t++)
		;
	return t == c->g->ntests ? 0
				 : ut_runner_preflight(c->runner, c->opts->worker, c->g->tests[t].id);
}

int ut_detect_run(ut_graph *g, ut_runner *runner, ut_journal *journal,
		  const ut_detect_opts *opts, ut_detect_stats *stats)
{
	dx_ctx c;
	size_t i;
	int rc;

	memset(stats, 0, sizeof(*stats));
	rc = dx_ctx_init(&c, g, runner, journal, opts, stats);
	if (rc < 0)
		goto done;
	if (opts->revalidate) {
		if (opts->strategy != UT_STRATEGY_FAST) {
			rc = ut_error_set(UT_EINPUT, "incremental re-validation needs strategy fast");
			goto done;
		}
		/* What the graph left out stays out: the check does not run the original order
		 * again to find out otherwise. */
		for (i = 0; i < g->ntests; i++) {
			if (opts->revalidate[i] == UT_REVALIDATE_SEARCH)
				g->tests[i].flaky = g->tests[i].failing =
					g->tests[i].needs_left_out = false;
			c.excluded[i] = g->tests[i].flaky ? DX_FLAKY
					: g->tests[i].failing ? DX_FAILING : DX_IN;
		}
	}
	rc = dx_preflight(&c);
	if (rc == 0)
		rc = opts->strategy == UT_STRATEGY_TEDD ? dx_tedd(&c) : dx_fast(&c);
	explain_left_out(&c);
	for (i = 0; i < g->edges.n; i++) {
		ut_edge *e = &g->edges.v[i];

		/* the runner runs a declared dependee first whatever a run showed */
		if (e->origin == UT_ORIGIN_DECLARED && e->status != UT_EDGE_MANIFEST) {
			e->status = UT_EDGE_MANIFEST;
			e->reason = "declared by the test (dependsOnMethods, dependsOnGroups)";
		}
		stats->manifest += e->status == UT_EDGE_MANIFEST;
	}
	g->stats.strategy = ut_detect_strategy_name(opts->strategy);
	g->stats.schedules_run = stats->schedules_run;
	g->stats.test_executions = stats->test_executions;
	g->stats.test_s = stats->test_s;
	g->stats.failing_executions = stats->failing_executions;
	g->stats.failing_s = stats->failing_s;
done:
	stats->wall_s = ut_clock_mono() - c.t0;
	g->stats.wall_s = stats->wall_s;
	dx_ctx_dispose(&c);
	return rc;
}
