/* evidence.c: what the runs of a detection showed, per test: "passed after exactly these
 * tests", "failed after exactly these tests", and the whole schedules it ended that passed.
 *
 * Assuming more prerequisites never hurt (the monotone assumption of the search), a pass
 * after P answers every question about a superset of P and a failure after F every
 * question about a subset of F, so a record that another one says more than is dropped.
 * Records contradicting each other are flakiness: a failure after a superset of a pass is
 * not kept (dx_run_batch re-runs it first), and a pass drops the failures it contradicts. */
#include "detect/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

static void recs_free(dx_recs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].set);
	ut_vec_free(r);
}

static int rec_push(dx_recs *r, const uint32_t *set, size_t n, long run)
{
	dx_rec rec;

	rec.set = malloc((n ? n : 1) * sizeof(*rec.set));
	if (!rec.set)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (n)
		memcpy(rec.set, set, n * sizeof(*set));
	rec.n = n;
	rec.run = run;
	if (ut_vec_push(r, rec) < 0) {
		free(rec.set);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

/* Adds a record unless one already says more; drops those it says more than. For passes
 * a smaller set says more, for failures a larger one. */
static int recs_add(dx_recs *r, const uint32_t *set, size_t n, long run, bool is_pass)
{
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		const dx_rec *e = &r->v[i];

		if (is_pass ? dx_subset(e->set, e->n, set, n) : dx_subset(set, n, e->set, e->n))
			return 0;
	}
	for (i = k = 0; i < r->n; i++) {
		dx_rec *e = &r->v[i];

		if (is_pass ? dx_subset(set, n, e->set, e->n) : dx_subset(e->set, e->n, set, n))
			free(e->set);
		else
			r->v[k++] = *e;
	}
	r->n = k;
	if (r->n >= DX_RECORDS) {
		free(r->v[0].set);
		memmove(r->v, r->v + 1, (r->n - 1) * sizeof(*r->v));
		r->n--;
	}
	return rec_push(r, set, n, run);
}

int dx_evidence_init(dx_ctx *c)
{
	c->ev = calloc(c->g->ntests ? c->g->ntests : 1, sizeof(*c->ev));
	return c->ev ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

void dx_evidence_free(dx_ctx *c)
{
	for (size_t i = 0; c->ev && i < c->g->ntests; i++) {
		recs_free(&c->ev[i].pass);
		recs_free(&c->ev[i].fail);
		recs_free(&c->ev[i].whole);
	}
	free(c->ev);
	c->ev = NULL;
}

/* Whether the tests of a (ascending) that are in w are in b (both ascending). */
static bool subset_within(const uint32_t *a, size_t na, const uint32_t *w, size_t nw,
			  const uint32_t *b, size_t nb)
{
	size_t j = 0, k = 0;

	for (size_t i = 0; i < na; i++) {
		while (j < nw && w[j] < a[i])
			j++;
		if (j == nw)
			return true;
		if (w[j] != a[i])
			continue;
		while (k < nb && b[k] < a[i])
			k++;
		if (k == nb || b[k] != a[i])
			return false;
	}
	return true;
}

int dx_evidence_known(const dx_ctx *c, uint32_t t, const uint32_t *set, size_t n,
		      const uint32_t *within, size_t nw, long *run)
{
	const dx_evidence *x = &c->ev[t];
	size_t i;

	for (i = 0; i < x->fail.n; i++) {
		if (dx_subset(set, n, x->fail.v[i].set, x->fail.v[i].n)) {
			*run = x->fail.v[i].run;
			return -1;
		}
	}
	for (i = 0; i < x->pass.n; i++) {
		const dx_rec *p = &x->pass.v[i];

		if (within ? subset_within(p->set, p->n, within, nw, set, n)
			   : dx_subset(p->set, p->n, set, n)) {
			*run = p->run;
			return 1;
		}
	}
	return 0;
}

bool dx_evidence_contradicts(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n)
{
	const dx_evidence *x = &c->ev[t];

	for (size_t i = 0; i < x->pass.n; i++) {
		if (dx_subset(x->pass.v[i].set, x->pass.v[i].n, before, n))
			return true;
	}
	return false;
}

long dx_evidence_whole(const dx_ctx *c, uint32_t t, const uint32_t *before, size_t n)
{
	const dx_recs *w = &c->ev[t].whole;

	for (size_t i = 0; i < w->n; i++) {
		if (w->v[i].n == n && (!n || !memcmp(w->v[i].set, before, n * sizeof(*before))))
			return w->v[i].run;
	}
	return 0;
}

/* A pass after `before` refutes the failures of t after a superset of it. */
static void drop_refuted(dx_evidence *x, const uint32_t *before, size_t n)
{
	size_t i, k;

	for (i = k = 0; i < x->fail.n; i++) {
		dx_rec *e = &x->fail.v[i];

		if (dx_subset(before, n, e->set, e->n))
			free(e->set);
		else
			x->fail.v[k++] = *e;
	}
	x->fail.n = k;
}

int dx_evidence_learn(dx_ctx *c, const uint32_t *sched, size_t n, size_t ends,
		      const dx_result *r)
{
	size_t all = 0; /* how many tests from the first passed */
	int rc = 0;

	if (r->error)
		return 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		uint32_t t = sched[i];
		dx_evidence *x = &c->ev[t];

		if (all == i && (r->outcomes[i] == UT_OUT_PASS || c->excluded[t] != DX_IN))
			all++; /* a test left out does not count */
		if (c->excluded[t] != DX_IN)
			continue;
		if (r->outcomes[i] == UT_OUT_PASS) {
			drop_refuted(x, sched, i);
			rc = recs_add(&x->pass, sched, i, r->run, true);
		} else if (r->outcomes[i] == UT_OUT_FAIL || r->outcomes[i] == UT_OUT_ERROR) {
			if (!dx_evidence_contradicts(c, t, sched, i))
				rc = recs_add(&x->fail, sched, i, r->run, false);
		}
	}
	ends = ends ? ends : 1;
	for (size_t i = n > ends ? n - ends : 0; rc == 0 && i < all; i++) {
		if (!dx_evidence_whole(c, sched[i], sched, i))
			rc = rec_push(&c->ev[sched[i]].whole, sched, i, r->run);
	}
	return rc;
}
