/* tedd.c: strategy tedd, the thesis' validation with recovery (5.2.3, Alg. 5) and
 * disconnected-dependency recovery (5.2.4, Alg. 6), kept faithful as the cost baseline:
 * edges are taken source first (the latest dependent, then its latest dependee); an edge
 * is "inverted" by running the dependent with its other prerequisites but without the
 * dependee; a failing test found during recovery gets candidate edges to every earlier
 * test not in the schedule. */
#include "detect/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

/* The next edge to validate: source first. NULL when none is left. */
static ut_edge *select_edge(dx_ctx *c)
{
	ut_edge *best = NULL;
	size_t i;

	for (i = 0; i < c->g->edges.n; i++) {
		ut_edge *e = &c->g->edges.v[i];

		if (!ut_edge_active(e) || e->status != UT_EDGE_CANDIDATE ||
		    c->excluded[e->dependent] != DX_IN)
			continue;
		if (!best || e->dependent > best->dependent ||
		    (e->dependent == best->dependent && e->dependee > best->dependee))
			best = e;
	}
	return best;
}

static size_t edge_index(const dx_ctx *c, const ut_edge *e)
{
	return (size_t)(e - c->g->edges.v);
}

/* Candidate edges from `test` to every earlier test not in the schedule (Alg. 5 line 6 and
 * Alg. 6 line 8). A false edge is given one more chance; returns how many became active. */
static int connect_preceding(dx_ctx *c, uint32_t test, const dx_sched *sched,
			     ut_edge_origin origin, long run, size_t *added)
{
	unsigned char *in = calloc(c->g->ntests ? c->g->ntests : 1, 1);
	uint32_t j;
	size_t i;
	int rc = 0;

	*added = 0;
	if (!in)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; sched && i < sched->n; i++)
		in[sched->v[i]] = 1;
	for (j = 0; j < test; j++) {
		ut_edge *e;

		if (in[j])
			continue;
		e = ut_graph_find(c->g, test, j);
		if (e && ut_edge_active(e))
			continue;
		if (e && e->status == UT_EDGE_FALSE && e->reopened)
			continue; /* refuted twice already */
		if (!e) {
			rc = ut_graph_add(c->g, test, j, origin, &e);
			if (rc < 0)
				break;
		} else {
			if (e->filtered_by)
				e->origin = origin; /* the filter was wrong: recovery found it */
			e->filtered_by = NULL;
			if (e->status == UT_EDGE_FALSE) {
				e->reopened = true;
				e->reason = "reopened by recovery";
			}
			e->status = UT_EDGE_CANDIDATE;
		}
		rc = ut_graph_add_evidence(e, run);
		if (rc < 0)
			break;
		(*added)++;
		c->stats->recovered++;
		c->checked[test] = 0;
	}
	free(in);
	return rc;
}

/* The schedule of `test` over the active edges as they stand (graph/schedule.c), without
 * its direct prerequisite skip's dependee (NULL: none). */
static int schedule_of(dx_ctx *c, uint32_t test, const ut_edge *skip, dx_sched *out)
{
	ut_scheduler s;
	int rc = ut_scheduler_init_active(&s, c->g);

	out->n = 0;
	if (rc == 0)
		rc = ut_scheduler_without(&s, test, skip ? skip->dependee : UINT32_MAX, &out->v,
					  &out->n, &out->cap);
	ut_scheduler_dispose(&s);
	return rc;
}

static void set_status(ut_edge *e, ut_edge_status s, const char *reason)
{
	e->status = s;
	e->reason = reason;
}

/* One edge: invert it; if the schedule fails, run without inversion (Alg. 5). */
static int validate_edge(dx_ctx *c, size_t ei)
{
	dx_sched inv = {0}, full = {0};
	dx_result r1 = {0}, r2 = {0};
	char purpose[1024];
	ut_edge *e = &c->g->edges.v[ei];
	uint32_t dep = e->dependent, dee = e->dependee;
	size_t added = 0;
	int rc;

	c->phase = UT_PHASE_VALIDATE;
	rc = schedule_of(c, dep, e, &inv);
	if (rc < 0)
		goto done;
	snprintf(purpose, sizeof(purpose), "invert %s -> %s", c->g->tests[dep].id,
		 c->g->tests[dee].id);
	rc = dx_run(c, inv.v, inv.n, purpose, &r1);
	if (rc < 0)
		goto done;
	e = &c->g->edges.v[ei];
	rc = ut_graph_add_evidence(e, r1.run);
	if (rc < 0)
		goto done;
	if (r1.first_failure < 0) {
		set_status(e, UT_EDGE_FALSE, "the dependent passed without the dependee");
		c->stats->removed++;
		goto done;
	}
	if (c->excluded[dep] != DX_IN)
		goto done; /* found flaky on the way */
	c->phase = UT_PHASE_RECOVER;
	rc = schedule_of(c, dep, NULL, &full);
	if (rc < 0)
		goto done;
	snprintf(purpose, sizeof(purpose), "without inversion %s -> %s", c->g->tests[dep].id,
		 c->g->tests[dee].id);
	rc = dx_run(c, full.v, full.n, purpose, &r2);
	if (rc < 0)
		goto done;
	e = &c->g->edges.v[ei];
	if (r2.first_failure < 0) {
		rc = ut_graph_add_evidence(e, r2.run);
		set_status(e, UT_EDGE_MANIFEST, "fails without the dependee, passes with it");
		goto done;
	}
	/* A missing dependency: connect the first failing test with the tests before it that
	 * the schedule did not run. */
	rc = connect_preceding(c, (uint32_t)r2.first_failure, &full, UT_ORIGIN_RECOVERED, r2.run,
			       &added);
	if (rc == 0 && !added && c->excluded[r2.first_failure] == DX_IN) {
		/* Nothing left to blame: it fails with every earlier test it could need. */
		dx_mark_flaky(c, (uint32_t)r2.first_failure);
	}
done:
	dx_result_dispose(&r1);
	dx_result_dispose(&r2);
	ut_vec_free(&inv);
	ut_vec_free(&full);
	return rc;
}

static int validate_all(dx_ctx *c)
{
	ut_edge *e;
	int rc = 0;

	while (rc == 0 && (e = select_edge(c)) != NULL)
		rc = validate_edge(c, edge_index(c, e));
	return rc;
}

/* Alg. 6 for one test without prerequisites; *added counts new candidate edges. */
static int disconnected_test(dx_ctx *c, uint32_t t, size_t *added)
{
	dx_sched one = {0}, s = {0};
	dx_result r = {0};
	char purpose[1024];
	size_t i, n = 0;
	bool has_dependents = false;
	int rc;

	c->phase = UT_PHASE_DISCONNECTED;
	rc = ut_vec_push(&one, t) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
	if (rc < 0)
		goto done;
	snprintf(purpose, sizeof(purpose), "alone %s", c->g->tests[t].id);
	rc = dx_run(c, one.v, one.n, purpose, &r);
	if (rc < 0)
		goto done;
	if (r.first_failure >= 0) {
		rc = connect_preceding(c, t, &one, UT_ORIGIN_DISCONNECTED, r.run, &n);
		*added += n;
		goto done;
	}
	for (i = 0; i < c->g->edges.n; i++) {
		const ut_edge *e = &c->g->edges.v[i];

		has_dependents = has_dependents || (ut_edge_active(e) && e->dependee == t);
	}
	if (!has_dependents)
		goto done;
	/* Every schedule holding t: the schedule of each sink whose closure contains it. */
	for (i = 0; i < c->g->ntests; i++) {
		bool sink = c->excluded[i] == DX_IN;
		size_t k;

		for (size_t j = 0; sink && j < c->g->edges.n; j++) {
			const ut_edge *e = &c->g->edges.v[j];

			sink = !(ut_edge_active(e) && e->dependee == i);
		}
		if (!sink || i <= t)
			continue;
		rc = schedule_of(c, (uint32_t)i, NULL, &s);
		if (rc < 0)
			goto done;
		for (k = 0; k < s.n && s.v[k] != t; k++)
			;
		if (k == s.n)
			continue;
		dx_result_dispose(&r);
		snprintf(purpose, sizeof(purpose), "schedule of %s (holds %s)", c->g->tests[i].id,
			 c->g->tests[t].id);
		rc = dx_run(c, s.v, s.n, purpose, &r);
		if (rc < 0)
			goto done;
		if (r.first_failure >= 0 && c->excluded[r.first_failure] == DX_IN) {
			rc = connect_preceding(c, (uint32_t)r.first_failure, &s,
					       UT_ORIGIN_DISCONNECTED, r.run, &n);
			*added += n;
			if (rc < 0)
				goto done;
		}
	}
done:
	dx_result_dispose(&r);
	ut_vec_free(&one);
	ut_vec_free(&s);
	return rc;
}

static int disconnected(dx_ctx *c, size_t *added)
{
	ut_adjacency adj;
	uint32_t t;
	int rc;

	*added = 0;
	rc = ut_adjacency_build(&adj, c->g, NULL, NULL);
	for (t = 1; rc == 0 && t < c->g->ntests; t++) {
		if (adj.start[t + 1] != adj.start[t] || c->excluded[t] != DX_IN || c->checked[t])
			continue;
		c->checked[t] = 1;
		rc = disconnected_test(c, t, added);
	}
	ut_adjacency_dispose(&adj);
	return rc;
}

int dx_tedd(dx_ctx *c)
{
	size_t added = 0, round;
	int rc;

	rc = dx_original_order(c, NULL, 0, NULL, NULL, NULL);
	for (round = 0; rc == 0 && round <= c->g->ntests; round++) {
		rc = validate_all(c);
		if (rc == 0)
			rc = disconnected(c, &added);
		if (rc < 0 || !added)
			break;
	}
	/* tedd's verdicts rest on runs that may have left out more than one test: the output
	 * goes through the same verification and repair as fast's. */
	if (rc == 0)
		rc = dx_verify_output(c);
	return rc;
}
