/* detect.c: the detect stage's entry point: sets up a run context and a strategy. */
#include "detect/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

static const char *const phase_names[] = {"original order", "validation", "recovery",
					   "disconnected recovery"};

const char *ut_detect_phase_name(ut_detect_phase p)
{
	return (unsigned)p < UT_PHASE_COUNT ? phase_names[p] : "?";
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
		else if (c->excluded[e->dependent] == DX_FAILING)
			e->reason = "not validated: the dependent fails in the original order";
	}
}

int ut_detect_run(ut_graph *g, ut_runner *runner, ut_journal *journal,
		  const ut_detect_opts *opts, ut_detect_stats *stats)
{
	dx_ctx c;
	size_t i, n = g->ntests ? g->ntests : 1;
	int rc;

	memset(stats, 0, sizeof(*stats));
	memset(&c, 0, sizeof(c));
	c.g = g;
	c.runner = runner;
	c.journal = journal;
	c.opts = opts;
	c.stats = stats;
	c.t0 = dx_now();
	c.excluded = calloc(n, 1);
	c.checked = calloc(n, 1);
	c.passes = calloc(n, sizeof(*c.passes));
	if (!c.excluded || !c.checked || !c.passes) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	if (opts->strategy && strcmp(opts->strategy, "tedd")) {
		rc = ut_error_set(UT_EINPUT, "strategy '%s' is not available yet (tedd is)",
				  opts->strategy);
		goto done;
	}
	rc = dx_tedd(&c);
	explain_left_out(&c);
	for (i = 0; i < g->edges.n; i++)
		stats->manifest += g->edges.v[i].status == UT_EDGE_MANIFEST;
	g->stats.strategy = "tedd";
	g->stats.schedules_run = stats->schedules_run;
	g->stats.test_executions = stats->test_executions;
done:
	stats->wall_s = dx_now() - c.t0;
	g->stats.wall_s = stats->wall_s;
	for (i = 0; c.passes && i < g->ntests; i++) {
		for (size_t k = 0; k < c.passes[i].n; k++)
			free(c.passes[i].v[k].before);
		ut_vec_free(&c.passes[i]);
	}
	free(c.passes);
	free(c.excluded);
	free(c.checked);
	return rc;
}
