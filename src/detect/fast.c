/* fast.c: strategy fast (and the incremental re-validation of untangle check): the
 * original order and every test alone in one batch, the search of search.c for every test
 * that fails alone, then the verification of verify.c. */
#include "detect/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

/* The original order (reruns + 1 times, when asked for) and every test to search alone, in
 * one batch: the evidence store keeps what they show. */
static int isolation(sx *s)
{
	size_t n = s->n ? s->n : 1, m = 0;
	dx_job *jobs = calloc(n, sizeof(*jobs));
	dx_result *res = calloc(n, sizeof(*res));
	char(*purpose)[200] = calloc(n, sizeof(*purpose));
	uint32_t *self = malloc(n * sizeof(*self));
	const unsigned char *reval = s->c->opts->revalidate;
	int rc = 0;

	if (!jobs || !res || !purpose || !self) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	/* Without reruns the original order would only tell which tests fail there, and the
	 * search finds that out when it needs to; with reruns it is run to see flaky tests.
	 * Its first test alone is the original order's first test. */
	s->with_original = !reval && s->c->opts->reruns > 0;
	s->c->durations_any = !s->with_original;
	for (uint32_t i = s->with_original ? 1 : 0; i < s->n; i++) {
		if (s->t[i].state != SX_START || s->c->excluded[i] != DX_IN)
			continue;
		self[i] = i;
		snprintf(purpose[m], sizeof(purpose[m]), "alone %s", s->g->tests[i].id);
		jobs[m] = (dx_job){&self[i], 1, purpose[m], UT_PHASE_ISOLATION, 1};
		m++;
	}
	if (s->with_original) {
		rc = dx_original_order(s->c, jobs, m, res, NULL, NULL);
	} else {
		s->c->phase = UT_PHASE_ISOLATION;
		rc = dx_run_batch(s->c, jobs, m, res);
	}
	if (rc < 0)
		m = 0; /* disposed by the batch */
done:
	dx_results_free(res, m);
	free(jobs);
	free(purpose);
	free(self);
	return rc;
}

int dx_fast(dx_ctx *c)
{
	const unsigned char *reval = c->opts->revalidate;
	unsigned char *scope = NULL;
	sx s;
	int rc = sx_init(&s, c);

	for (uint32_t t = 0; rc == 0 && t < s.n; t++) {
		bool search = !reval || reval[t] == UT_REVALIDATE_SEARCH;

		s.t[t].state = c->excluded[t] != DX_IN ? SX_DONE : search ? SX_START : SX_GRAPH;
	}
	if (rc == 0)
		rc = isolation(&s);
	if (rc == 0)
		rc = sx_settle_from_graph(&s);
	if (rc == 0)
		rc = sx_search(&s);
	if (rc == 0 && reval) {
		/* What the change touched and the tests that need it directly. */
		scope = calloc(s.n ? s.n : 1, 1);
		if (!scope)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		for (uint32_t t = 0; rc == 0 && t < s.n; t++)
			scope[t] = reval[t] != UT_REVALIDATE_KEEP;
		for (size_t i = 0; rc == 0 && i < c->g->edges.n; i++) {
			const ut_edge *e = &c->g->edges.v[i];

			if (ut_edge_active(e) && reval[e->dependee] != UT_REVALIDATE_KEEP)
				scope[e->dependent] = 1;
		}
	}
	if (rc == 0)
		rc = sx_verify(&s, scope);
	free(scope);
	sx_dispose(&s);
	return rc;
}
