/* batch.c: one batch of the search's planned runs (sx_run_probes). A probe another run
 * answers (the same owner after the same tests) runs once; a probe whose question a
 * longer run of the batch asks too, with its owner's tests before it, runs at that run's
 * end (host_of); and while outcomes agree, a settled test's edge that wants another
 * failure of its dependent without its dependee ends a search run that holds the
 * dependent's schedule less the dependee (plan_rides, count_rides): one execution instead
 * of a run of the verification's. The runs go to the workers as one batch; the evidence
 * store learns every one of them. */
#include "detect/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

#define SX_RIDE_MORE 2 /* tests besides its schedule less d a run a confirmation ends holds */

/* Whether probe q also answers p: it runs p's owner after exactly the same tests (a longer
 * probe of a dependent often holds its prerequisite's question). */
static bool answers(const sx_probe *q, const sx_probe *p)
{
	size_t lo = 0, hi = q->sched.n, pos = p->sched.n - 1;

	if (q->sched.n < p->sched.n)
		return false;
	while (lo < hi) { /* p's owner in q, ascending */
		size_t mid = (lo + hi) / 2;

		if (q->sched.v[mid] < p->owner)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo != pos || q->sched.v[lo] != p->owner)
		return false;
	return !memcmp(q->sched.v, p->sched.v, pos * sizeof(*p->sched.v));
}

static int by_length_desc(const void *a, const void *b)
{
	const sx_probe *x = a, *y = b;

	if (x->sched.n != y->sched.n)
		return x->sched.n > y->sched.n ? -1 : 1;
	return x->owner < y->owner ? -1 : x->owner > y->owner;
}

/* Whether h (a run, ascending) holds, of the tests of u (ascending), exactly those of set. */
static bool same_within(const dx_sched *h, const dx_sched *u, const uint32_t *set, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < h->n; i++) {
		if (!sx_contains(u, h->v[i]))
			continue;
		if (k == n || set[k] != h->v[i])
			return false;
		k++;
	}
	return k == n;
}

/* A run of this batch that answers p when p's owner runs at its end: every test the owner
 * may need (its u, in the peel) that the run holds is one p runs it after, and p's all
 * are there. Under the search's model the owner's outcome is then p's answer, and one run
 * tells it for several tests (siblings that need the same tests are searched side by
 * side). Only search runs take others: a verification run must end with its own test.
 * Returns the index in kept, or m when none. */
static size_t host_of(const sx *s, const size_t *kept, size_t m, const sx_probe *p)
{
	const sx_test *x = &s->t[p->owner];

	/* t after `in` and at most one test more may end its search, its run then being its
	 * schedule, which the verification wants to have run whole: those run on their own. */
	if (p->phase != UT_PHASE_SEARCH || x->state != SX_PEEL || !x->pass_run ||
	    p->sched.n - 1 <= x->in.n + 1)
		return m;
	for (size_t j = 0; j < m; j++) {
		const sx_probe *h = &s->probes.v[kept[j]];

		if (h->phase == UT_PHASE_SEARCH && h->sched.v[h->sched.n - 1] < p->owner &&
		    same_within(&h->sched, &x->u, p->sched.v, p->sched.n - 1))
			return j;
	}
	return m;
}

unsigned sx_hosted_confirmations(const sx *s, uint32_t t, uint32_t d, const dx_sched *without)
{
	uint64_t h = sx_probe_key(without->v, without->n, t);

	for (size_t i = 0; i < s->hconf.n; i++) {
		const sx_hconf *c = &s->hconf.v[i];

		if (c->t == t && c->d == d && c->sched == h)
			return c->hits;
	}
	return 0;
}

/* A confirmation the search asks at the end of one of its runs: t without d. */
typedef struct {
	uint32_t t, d;
	size_t job;	 /* the run (index in kept) */
	dx_sched less;	 /* t's schedule less d */
	unsigned stored; /* the store's failures of t after less without d, when planned */
} sx_ride;

typedef UT_VEC(sx_ride) sx_rides;

/* Whether t -> d (d found directly, the failure that proved it in the store) still needs
 * confirming failures (verify.c's edge_need while outcomes agree); less = t's schedule
 * without d. */
static bool wants_confirming(sx *s, uint32_t t, uint32_t d, dx_sched *less, int *rc)
{
	const sx_test *x = &s->t[t];
	unsigned seen;

	less->n = 0;
	for (size_t i = 0; *rc == 0 && i < x->anc.n; i++) {
		if (x->anc.v[i] != d)
			*rc = sx_push(less, x->anc.v[i]);
	}
	if (*rc < 0)
		return false;
	seen = dx_evidence_failures(s->c, t, less->v, less->n, d, false) +
	       sx_hosted_confirmations(s, t, d, less);
	return seen < (unsigned)dx_need(s->c);
}

static int push_ride(sx_rides *rides, uint32_t t, uint32_t d, size_t job, const dx_sched *less,
		     unsigned stored)
{
	sx_ride r = {t, d, job, {0}, stored};
	int rc = sx_copy_sched(&r.less, less);

	if (rc == 0 && ut_vec_push(rides, r) < 0) {
		ut_vec_free(&r.less);
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	return rc;
}

/* The confirmations that end search runs of this batch: each settled test's direct
 * prerequisite whose edge wants another failure of it without it (the verification would
 * run its schedule less d for that) goes at the end of a run that holds that schedule
 * less d, not d, and only tests before t: under the search's model a failure after more
 * tests answers every question about fewer (verify.c's host_confirmations), at the cost
 * of one execution instead of a schedule. After the batch's other owners, one a run, so
 * that no answer of the search runs after a test expected to fail. Only while outcomes
 * agree. */
static int plan_rides(sx *s, const size_t *kept, const size_t *base, size_t m, sx_rides *rides)
{
	unsigned char *taken = calloc(m ? m : 1, 1);
	dx_sched less = {0};
	int rc = taken ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	for (uint32_t t = 0; rc == 0 && !s->c->unsteady && t < s->n; t++) {
		const sx_test *x = &s->t[t];

		if (x->state != SX_DONE || !sx_included(s, t))
			continue;
		for (size_t f = 0; rc == 0 && f < x->found.n; f++) {
			uint32_t d = x->found.v[f].test;
			size_t best = m;

			if (!wants_confirming(s, t, d, &less, &rc))
				continue;
			for (size_t j = 0; j < m; j++) {
				const sx_probe *h = &s->probes.v[kept[j]];

				/* the schedule less d among the tests the run's owner runs
				 * after (they pass there, their prerequisites with them;
				 * the owner and the others at its end may fail), and at most
				 * SX_RIDE_MORE tests more: each is one that may break t where
				 * the monotone model does not hold, and the runs of the
				 * verification that confirmations end hold one or two */
				if (taken[j] || h->phase != UT_PHASE_SEARCH ||
				    h->sched.n > less.n + SX_RIDE_MORE ||
				    h->sched.v[h->sched.n - 1] >= t || sx_contains(&h->sched, d) ||
				    !dx_subset(less.v, less.n, h->sched.v, base[j] - 1))
					continue;
				if (best == m || h->sched.n < s->probes.v[kept[best]].sched.n)
					best = j;
			}
			if (best == m)
				continue;
			taken[best] = 1;
			rc = push_ride(rides, t, d, best, &less,
				       dx_evidence_failures(s->c, t, less.v, less.n, d, false));
		}
	}
	ut_vec_free(&less);
	free(taken);
	return rc;
}

/* After the batch: each ride whose t failed with every test of its schedule less d passing
 * before it confirms t -> d once more: counted here (sx_hconf) unless the store recorded
 * that failure itself (then it counts there, and one run is not counted twice). */
static int count_rides(sx *s, const dx_job *jobs, const dx_result *res, sx_rides *rides)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < rides->n; i++) {
		const sx_ride *r = &rides->v[i];
		const dx_job *job = &jobs[r->job];
		const dx_result *o = &res[r->job];
		uint64_t h = sx_probe_key(r->less.v, r->less.n, r->t);
		size_t k = 0, at = job->n - 1;
		bool ok = !o->error && job->sched[at] == r->t && o->outcomes[at] == UT_OUT_FAIL;
		sx_hconf *c = NULL;

		for (size_t j = 0; ok && j < at; j++) { /* the schedule less d, all passing */
			if (k < r->less.n && job->sched[j] == r->less.v[k]) {
				ok = o->outcomes[j] == UT_OUT_PASS;
				k++;
			}
		}
		if (!ok || k != r->less.n ||
		    dx_evidence_failures(s->c, r->t, r->less.v, r->less.n, r->d, false) > r->stored)
			continue;
		for (size_t j = 0; j < s->hconf.n && !c; j++) {
			if (s->hconf.v[j].t == r->t && s->hconf.v[j].d == r->d &&
			    s->hconf.v[j].sched == h)
				c = &s->hconf.v[j];
		}
		if (c)
			c->hits++;
		else if (ut_vec_push(&s->hconf, ((sx_hconf){r->t, r->d, h, 1})) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	return rc;
}

int sx_run_probes(sx *s)
{
	dx_job *jobs = calloc(s->probes.n ? s->probes.n : 1, sizeof(*jobs));
	dx_result *res = calloc(s->probes.n ? s->probes.n : 1, sizeof(*res));
	size_t *kept = calloc(s->probes.n ? s->probes.n : 1, sizeof(*kept));
	size_t *base = calloc(s->probes.n ? s->probes.n : 1, sizeof(*base));
	sx_rides rides = {0};
	size_t m = 0;
	int rc, ran;

	if (!jobs || !res || !kept || !base) {
		free(jobs);
		free(res);
		free(kept);
		free(base);
		sx_probes_clear(s);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	qsort(s->probes.v, s->probes.n, sizeof(*s->probes.v), by_length_desc);
	for (size_t i = 0; i < s->probes.n; i++) {
		const sx_probe *p = &s->probes.v[i];
		bool dup = false;

		size_t h;

		for (size_t j = 0; j < m && !dup; j++)
			dup = answers(&s->probes.v[kept[j]], p);
		if (dup)
			continue;
		h = host_of(s, kept, m, p);
		if (h < m && sx_push(&s->probes.v[kept[h]].sched, p->owner) == 0)
			continue;
		base[m] = p->sched.n;
		kept[m++] = i;
	}
	rc = plan_rides(s, kept, base, m, &rides);
	for (size_t i = 0; rc == 0 && i < rides.n; i++) {
		sx_probe *h = &s->probes.v[kept[rides.v[i].job]];
		size_t len = strlen(h->purpose);

		rc = sx_push(&h->sched, rides.v[i].t);
		snprintf(h->purpose + len, sizeof(h->purpose) - len, ", then confirm that %s needs %s",
			 s->g->tests[rides.v[i].t].id, s->g->tests[rides.v[i].d].id);
	}
	for (size_t j = 0; j < m; j++) { /* the owners the run took each end a schedule */
		const sx_probe *p = &s->probes.v[kept[j]];

		jobs[j] = (dx_job){p->sched.v, p->sched.n, p->purpose, p->phase,
				   p->sched.n - base[j] + 1};
	}
	ran = rc == 0 ? dx_run_batch(s->c, jobs, m, res) : rc; /* the store learns every run */
	rc = ran == 0 ? count_rides(s, jobs, res, &rides) : ran;
	for (size_t i = 0; i < rides.n; i++)
		ut_vec_free(&rides.v[i].less);
	ut_vec_free(&rides);
	dx_results_free(res, ran < 0 ? 0 : m);
	free(jobs);
	free(kept);
	free(base);
	sx_probes_clear(s);
	return rc;
}
