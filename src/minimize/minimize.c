/* minimize.c: builds thesis 6.2.2's problem from the graph, durations and coverage,
 * solves it (Z3, greedy when Z3 gives nothing) and finds obsolete tests (thesis 5.3.5). */
#include "minimize/minimize.h"

#include <stdlib.h>
#include <string.h>

#include "minimize/internal.h"
#include "util/error.h"
#include "util/banned.h"

bool ut_minimize_eligible(const ut_graph_test *t)
{
	return !t->flaky && !t->failing;
}

static bool manifest(const ut_edge *e)
{
	return e->status == UT_EDGE_MANIFEST && !e->filtered_by;
}

int ut_coverage_invert(const ut_coverage *cov, uint32_t **start, uint32_t **tests)
{
	size_t ne = cov->elements.n, t, i, total = 0;

	for (t = 0; t < cov->ntests; t++)
		total += cov->of[t].n;
	*start = calloc(ne + 2, sizeof(**start));
	*tests = malloc((total + 1) * sizeof(**tests));
	if (!*start || !*tests)
		return UT_ENOMEM;
	for (t = 0; t < cov->ntests; t++)
		for (i = 0; i < cov->of[t].n; i++)
			(*start)[cov->of[t].v[i] + 2]++;
	for (i = 2; i < ne + 2; i++)
		(*start)[i] += (*start)[i - 1];
	for (t = 0; t < cov->ntests; t++)
		for (i = 0; i < cov->of[t].n; i++)
			(*tests)[(*start)[cov->of[t].v[i] + 1]++] = (uint32_t)t;
	return 0;
}

static int build(ut_solver_problem *p, const ut_graph *g, const ut_coverage *cov,
		 ut_minimize_result *r)
{
	uint32_t *members = malloc((g->ntests + 1) * sizeof(*members));
	size_t e, i;
	int rc = UT_ENOMEM;

	if (!members)
		goto done;
	for (i = 0; i < g->ntests; i++) {
		p->cost[i] = r->duration[i];
		p->pinned[i] = r->pinned[i];
	}
	for (e = 0; e < cov->elements.n; e++) {
		size_t n = 0;

		for (i = r->cov_start[e]; i < r->cov_start[e + 1]; i++)
			if (ut_minimize_eligible(&g->tests[r->cov_tests[i]]))
				members[n++] = r->cov_tests[i];
		if (n == 0) {
			r->nuncoverable++;
			continue;
		}
		rc = ut_solver_add_clause(p, members, n);
		if (rc < 0)
			goto done;
		r->nrequired++;
	}
	for (i = 0; i < g->edges.n; i++) {
		if (!manifest(&g->edges.v[i]))
			continue;
		rc = ut_solver_add_implication(p, g->edges.v[i].dependent, g->edges.v[i].dependee);
		if (rc < 0)
			goto done;
	}
	rc = 0;
done:
	free(members);
	return rc;
}

/* Greedy first, so that its time counts against the limit and its cost is reported
 * beside Z3's; then Z3 with the time that is left. */
static int solve(const ut_solver_problem *p, const ut_minimize_opts *opts,
		 ut_minimize_result *r)
{
	ut_solver_result z, greedy, *best;
	double limit = opts->time_limit_s;
	int rc;

	memset(&z, 0, sizeof(z));
	memset(&greedy, 0, sizeof(greedy));
	z.status = UT_SOLVE_UNKNOWN;
	rc = ut_solver_greedy(p, &greedy);
	if (rc < 0)
		goto done;
	if (limit > 0)
		limit = limit - greedy.seconds > 0.01 ? limit - greedy.seconds : 0.01;
	if (!opts->no_z3) {
		rc = ut_solver_solve(p, limit, &z);
		if (rc < 0)
			goto done;
	}
	best = z.status == UT_SOLVE_OPTIMAL ||
			       (z.status == UT_SOLVE_FEASIBLE && z.objective <= greedy.objective)
		       ? &z
		       : &greedy;
	r->method = best == &z ? "z3" : "greedy";
	r->status = best->status;
	r->stopped = z.stopped;
	r->reason = (char *)z.reason;
	z.reason = NULL;
	r->lower_bound = z.lower_bound > greedy.lower_bound ? z.lower_bound : greedy.lower_bound;
	if (r->lower_bound > best->objective)
		r->lower_bound = best->objective;
	r->greedy_cost = greedy.objective;
	r->seconds = z.seconds + greedy.seconds;
	memcpy(r->kept, best->chosen, p->nvars * sizeof(*r->kept));
	rc = 0;
done:
	ut_solver_result_dispose(&z);
	ut_solver_result_dispose(&greedy);
	return rc;
}

static void find_obsolete(const ut_graph *g, const ut_coverage *cov, ut_minimize_result *r)
{
	size_t t, i, j;
	bool *needed = calloc(g->ntests + 1, sizeof(*needed));

	if (!needed)
		return; /* r->obsolete stays all false: nothing claimed without evidence */
	for (i = 0; i < g->edges.n; i++)
		if (manifest(&g->edges.v[i]))
			needed[g->edges.v[i].dependee] = true;
	for (t = 0; t < g->ntests; t++) {
		bool subsumed = ut_minimize_eligible(&g->tests[t]) && !needed[t] && cov->listed[t];

		for (i = 0; subsumed && i < cov->of[t].n; i++) {
			uint32_t e = cov->of[t].v[i];
			bool other = false;

			for (j = r->cov_start[e]; j < r->cov_start[e + 1] && !other; j++)
				other = r->cov_tests[j] != t &&
					ut_minimize_eligible(&g->tests[r->cov_tests[j]]);
			subsumed = other;
		}
		r->obsolete[t] = subsumed;
	}
	free(needed);
}

int ut_minimize_run(const ut_graph *g, const ut_coverage *cov, const double *duration,
		    const bool *estimated, double fallback_s, const ut_minimize_opts *opts,
		    ut_minimize_result *out)
{
	ut_solver_problem p;
	size_t n = g->ntests, i;
	int rc = UT_ENOMEM;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	out->ntests = n;
	out->fallback_s = fallback_s;
	out->duration = malloc((n + 1) * sizeof(*out->duration));
	out->estimated = calloc(n + 1, sizeof(*out->estimated));
	out->kept = calloc(n + 1, sizeof(*out->kept));
	out->pinned = calloc(n + 1, sizeof(*out->pinned));
	out->obsolete = calloc(n + 1, sizeof(*out->obsolete));
	if (!out->duration || !out->estimated || !out->kept || !out->pinned || !out->obsolete ||
	    ut_coverage_invert(cov, &out->cov_start, &out->cov_tests) < 0 || ut_solver_problem_init(&p, n) < 0)
		goto done;
	for (i = 0; i < n; i++) {
		out->duration[i] = duration[i];
		out->estimated[i] = estimated && estimated[i];
		out->nestimated += out->estimated[i];
		out->cost_before += duration[i];
	}
	for (i = 0; i < opts->nkeep; i++) {
		bool ambiguous;
		long t = ut_graph_find_test(g, opts->keep[i], &ambiguous);

		if (t < 0) {
			rc = ut_error_set(UT_EINPUT, "--keep: '%s' is no test of the graph (or "
						     "names more than one)", opts->keep[i]);
			goto done;
		}
		out->pinned[t] = true;
	}
	rc = build(&p, g, cov, out);
	if (rc == 0)
		rc = solve(&p, opts, out);
	if (rc < 0)
		goto done;
	for (i = 0; i < n; i++) {
		out->tests_after += out->kept[i];
		out->cost_after += out->kept[i] ? duration[i] : 0;
	}
	find_obsolete(g, cov, out);
done:
	if (rc == UT_ENOMEM)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	ut_solver_problem_dispose(&p);
	return rc;
}

void ut_minimize_result_dispose(ut_minimize_result *r)
{
	if (!r)
		return;
	free(r->duration);
	free(r->estimated);
	free(r->kept);
	free(r->pinned);
	free(r->obsolete);
	free(r->reason);
	free(r->cov_start);
	free(r->cov_tests);
	memset(r, 0, sizeof(*r));
}
