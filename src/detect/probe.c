/* probe.c: a batch of schedules run for a caller that judges them itself (untangle check's
 * removed prerequisites), through the same journal, workers and re-runs as a detection. */
#include "detect/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/error.h"
#include "util/banned.h"

int ut_detect_probe(ut_graph *g, ut_runner *runner, ut_journal *journal,
		    const ut_detect_opts *opts, const ut_detect_probe_job *jobs, size_t m,
		    ut_detect_probe_result *out, ut_detect_stats *stats)
{
	dx_ctx c;
	dx_job *dj = calloc(m ? m : 1, sizeof(*dj));
	dx_result *res = calloc(m ? m : 1, sizeof(*res));
	int rc = dx_ctx_init(&c, g, runner, journal, opts, stats);

	memset(out, 0, m * sizeof(*out));
	if (rc == 0 && (!dj || !res))
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc < 0)
		goto done;
	for (size_t i = 0; i < g->ntests; i++)
		c.excluded[i] = g->tests[i].flaky ? DX_FLAKY : g->tests[i].failing ? DX_FAILING
										      : DX_IN;
	for (size_t i = 0; i < m; i++)
		dj[i] = (dx_job){jobs[i].sched, jobs[i].n, jobs[i].purpose, UT_PHASE_VERIFY, 1};
	c.phase = UT_PHASE_VERIFY;
	rc = dx_run_batch(&c, dj, m, res);
	if (rc < 0) {
		free(res); /* disposed by the batch */
		res = NULL;
		goto done;
	}
	for (size_t i = 0; i < m; i++) {
		out[i].run = res[i].run;
		out[i].error = res[i].error;
		out[i].outcomes = res[i].outcomes;
		res[i].outcomes = NULL;
	}
done:
	stats->wall_s += ut_clock_mono() - c.t0;
	dx_results_free(res, res ? m : 0);
	dx_ctx_dispose(&c);
	free(dj);
	return rc;
}
